import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freshLoginLink, signIn, tempFolder } from "./helpers";

test(
  "the printed login link signs in once; a reused link is refused",
  { tag: "@any-viewport" },
  async ({ page, browser }) => {
    const link = freshLoginLink();
    await page.goto(link);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    // Signing in lands on Cards when anything waits, else on Workspaces.
    const { pending } = (await (await page.request.get("/api/v1/cards/count")).json()) as { pending: number };
    await expect(page).toHaveURL(pending > 0 ? /\/cards$/ : /\/workspaces$/);
    for (const name of ["Cards", "Rules", "Audit", "Settings"])
      await expect(page.getByRole("link", { name })).toBeVisible();

    const other = await browser.newContext();
    const second = await other.newPage();
    await second.goto(link);
    await expect(second.locator(".error[role=alert]")).toContainText(/invalid, expired or already used/);
    await expect(second.getByText("npx cockpit login-link").first()).toBeVisible();
    await other.close();
  },
);

test(
  "pages redirect to the login page keeping the page asked for; signing in returns there; the API answers 401",
  { tag: "@any-viewport" },
  async ({ page, playwright, baseURL }) => {
    await page.goto("/rules?scope=workspace");
    await expect(page).toHaveURL(/\/login\?next=%2Frules%3Fscope%3Dworkspace$/);
    await expect(page.getByTestId("login-next")).toContainText("/rules?scope=workspace");
    await expect(page.getByText("npx cockpit login-link").first()).toBeVisible();
    // A login link from the CLI opens a page without `next`: the page asked for still comes back.
    await page.goto(freshLoginLink());
    await expect(page).toHaveURL(/\/rules\?.*scope=workspace/);
    // `next` is same-origin only: another site (or a protocol-relative URL) lands on the app's own page.
    await page.context().clearCookies();
    await page.goto(`/login?next=${encodeURIComponent("//evil.example/x")}`);
    await expect(page.getByTestId("login-next")).toHaveCount(0);
    await page.goto(freshLoginLink());
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/(cards|workspaces)$/);
    const anonymous = await playwright.request.newContext({ baseURL });
    const res = await anonymous.get("/api/v1/workspaces");
    expect(res.status()).toBe(401);
    expect(await res.json()).toEqual({ error: "sign in required", code: "unauthorized" });
    const health = await anonymous.get("/api/health");
    expect(health.status()).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, database: "embedded", migrations: { current: true } });
    await anonymous.dispose();
  },
);

test("a cross-site POST with a valid session is refused with 403", { tag: "@any-viewport" }, async ({ page }) => {
  await signIn(page);
  const folder = tempFolder("csrf");
  const res = await page.request.post("/api/v1/workspaces", {
    headers: { origin: "https://evil.example", "content-type": "application/json" },
    data: { path: folder },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).error).toMatch(/cross-site/);
  const list = await page.request.get("/api/v1/workspaces");
  expect(JSON.stringify(await list.json())).not.toContain(folder);
});

test("workspaces: add, list with agent stores, reject an invalid path, remove", async ({ page }) => {
  await signIn(page);
  const folder = tempFolder("ws");
  fs.mkdirSync(path.join(folder, ".claude"));
  fs.writeFileSync(path.join(folder, ".claude", "settings.json"), "{}\n");
  fs.mkdirSync(path.join(folder, ".mevedel"));
  fs.writeFileSync(path.join(folder, ".mevedel", "permissions.el"), "(:rules nil :resource-grants nil)\n");

  await page.goto("/cards");
  await page.getByRole("link", { name: "Workspaces" }).click();
  await page.getByLabel("Folder path").fill(path.join(folder, "missing"));
  await page.getByRole("button", { name: "Add workspace" }).click();
  await expect(page.locator(".error[role=alert]")).toContainText("does not exist");

  fs.writeFileSync(path.join(folder, "file.txt"), "x");
  await page.getByLabel("Folder path").fill(path.join(folder, "file.txt"));
  await page.getByRole("button", { name: "Add workspace" }).click();
  await expect(page.locator(".error[role=alert]")).toContainText("is not a folder");

  await page.getByLabel("Folder path").fill(folder);
  await page.getByRole("button", { name: "Add workspace" }).click();
  await expect(page.getByRole("status")).toContainText(`Registered ${fs.realpathSync(folder)}`);
  const item = page.getByTestId("workspace").filter({ hasText: fs.realpathSync(folder) });
  await expect(item).toContainText(".claude/settings.json");
  await expect(item).toContainText(".mevedel/permissions.el");

  await page.reload();
  await expect(item).toBeVisible();
  await page.screenshot({ path: `test-results/workspaces-${test.info().project.name}.png`, fullPage: true });

  page.once("dialog", (dialog) => dialog.accept());
  await item.getByRole("button", { name: /Remove/ }).click();
  await expect(page.getByRole("status")).toContainText("Removed");
  await expect(item).toHaveCount(0);
});

test("navigation targets are at least 44 px tall", async ({ page }) => {
  await signIn(page);
  await page.goto("/workspaces");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  for (const link of await page.getByRole("navigation", { name: "Main" }).getByRole("link").all()) {
    const box = await link.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
  }
});
