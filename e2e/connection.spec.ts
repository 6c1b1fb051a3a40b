import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { appOrigin, cockpit, freshLoginLink, signIn, tempFolder } from "./helpers";

let dir: string;
let token: string;

test.beforeAll(() => {
  dir = tempFolder("connection-ws");
  fs.mkdirSync(path.join(dir, ".claude"));
  fs.writeFileSync(path.join(dir, ".claude", "settings.json"), "{}\n");
  cockpit(["workspace", "add", dir]);
  const lines = cockpit(["agent-token", "create", "--workspace", dir]).trim().split("\n");
  token = lines[lines.length - 1]!.trim();
});

/** A pending card through the agent API (as a connector admits one); returns its id. */
async function admit(page: Page, command: string): Promise<string> {
  const res = await page.request.post("/api/agent/v1/cards", {
    headers: { authorization: `Bearer ${token}` },
    data: { agent: "claude-code", sessionId: `conn-${test.info().project.name}`, tool: "Bash", input: { command } },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const marker = () => `${test.info().project.name}${Date.now().toString(36)}`;

test("a notification's deep link survives sign-in; measured: deep link → first answer button", async ({ page }) => {
  await signIn(page);
  const id = await admit(page, `npm run deploy-${marker()}`);
  // Signed in: from opening the deep link to the answer button on screen.
  let started = Date.now();
  await page.goto(`/cards/${id}`);
  await expect(page.getByRole("button", { name: "Allow once" })).toBeVisible();
  const signedIn = Date.now() - started;
  // Signed out (the phone's session expired): the deep link goes through the login page and comes back.
  await page.context().clearCookies();
  started = Date.now();
  await page.goto(`/cards/${id}`);
  await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Fcards%2F${id}$`));
  await page.goto(freshLoginLink());
  await expect(page).toHaveURL(new RegExp(`/cards/${id}$`));
  await expect(page.getByRole("button", { name: "Allow once" })).toBeVisible();
  const throughSignIn = Date.now() - started;
  // Answerable without scrolling, on the phone too: both answer buttons are on screen as the page opens.
  await expect(page.getByRole("button", { name: "Allow once" })).toBeInViewport();
  await expect(page.getByRole("button", { name: "Deny", exact: true })).toBeInViewport();
  await page.screenshot({
    path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/deep-link-card-${test.info().project.name}.png`,
  });
  console.log(
    `[deep link ${test.info().project.name}] answer button visible after ${signedIn} ms signed in, ${throughSignIn} ms through a sign-in`,
  );
  await page.getByRole("button", { name: "Deny", exact: true }).click();
  await expect(page.getByTestId("answer-notice")).toContainText("Denied: npm run deploy-");
});

test("offline: the indicator says so, answering is disabled with the reason, navigation shows the offline page", async ({
  page,
  context,
}) => {
  await signIn(page);
  const id = await admit(page, `terraform apply -auto-approve ${marker()}`);
  await page.goto(`/cards/${id}`);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");
  // The installed app's worker holds the offline page: wait until it controls this page.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");

  await context.setOffline(true);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "offline");
  await expect(page.getByTestId("connection")).toHaveText("Offline");
  await expect(page.getByTestId("answer-offline")).toContainText("cannot be reached");
  await expect(page.getByRole("button", { name: "Allow once" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Deny", exact: true })).toBeDisabled();
  await page.screenshot({
    path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/offline-card-${test.info().project.name}.png`,
  });
  await page.goto("/cards").catch(() => undefined);
  await expect(page.getByTestId("offline-page")).toBeVisible();
  await expect(page.getByTestId("offline-page")).toContainText("Nothing can be answered");

  await context.setOffline(false);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");
  await page.goto(`/cards/${id}`);
  await page.getByRole("button", { name: "Allow once" }).click();
  await expect(page.getByTestId("answer-notice")).toContainText("Allowed once: terraform apply");
});

test("a session ended elsewhere is noticed at once; the card stays, with Sign in with a passkey in place", async ({
  page,
  browser,
}) => {
  await signIn(page);
  const id = await admit(page, `helm upgrade web ./chart ${marker()}`);
  await page.goto(`/cards/${id}`);
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");
  const mine = (
    (await (await page.request.get("/api/v1/devices")).json()) as { sessions: { id: string; current: boolean }[] }
  ).sessions.find((s) => s.current)!;
  // The owner ends this session from another device.
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const otherPage = await other.newPage();
  await signIn(otherPage);
  const ended = await otherPage.request.delete(`/api/v1/devices/${mine.id}`, {
    headers: { origin: appOrigin() },
  });
  expect(ended.status()).toBe(200);
  await other.close();

  const banner = page.getByTestId("session-ended");
  await expect(banner).toBeVisible();
  await expect(banner.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
  await expect(page.getByTestId("connection")).toHaveText("Signed out");
  // The card is still there to read; answering says why it cannot.
  await expect(page.getByTestId("card")).toContainText("helm upgrade web");
  await expect(page.getByTestId("answer-offline")).toContainText("session has ended");
  await expect(page.getByRole("button", { name: "Allow once" })).toBeDisabled();
  await page.screenshot({
    path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/session-ended-${test.info().project.name}.png`,
  });
  // Signing in again (a login link here) brings the same card back, answerable.
  await page.goto(freshLoginLink());
  await expect(page).toHaveURL(/\/(cards|workspaces)/);
  await page.goto(`/cards/${id}`);
  await page.getByRole("button", { name: "Deny", exact: true }).click();
  await expect(page.getByTestId("answer-notice")).toContainText("Denied: helm upgrade web");
});

test("a long request: Deny and Allow once stay on screen while it is read, not under the navigation", async ({
  page,
}) => {
  await signIn(page);
  const m = marker();
  const command = [`# ${m}`, ...Array.from({ length: 80 }, (_, i) => `npm run step-${i}`)].join("\n");
  const id = await admit(page, command);
  await page.goto(`/cards/${id}`);
  const card = page.getByTestId("card");
  await expect(card).toContainText(m);
  // Unfolded, the request is far taller than the screen.
  await card.getByRole("button", { name: /Show all/ }).click();
  await expect(card).toContainText("npm run step-40");
  expect((await card.boundingBox())!.height).toBeGreaterThan(2 * page.viewportSize()!.height);
  for (const name of ["Deny", "Allow once"]) {
    const button = page.getByRole("button", { name, exact: true });
    await expect(button).toBeInViewport();
    // What a tap at the button's centre reaches: the button itself, not the navigation bar over it.
    const box = (await button.boundingBox())!;
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest("button")?.textContent?.trim() ?? null,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(hit).toBe(name);
  }
  await page.screenshot({
    path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/long-card-${test.info().project.name}.png`,
  });
  await page.getByRole("button", { name: "Deny", exact: true }).click();
  await expect(page.getByTestId("answer-notice")).toContainText(`Denied: # ${m}`);
});
