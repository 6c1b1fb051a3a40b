import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { cockpit, signIn, tempFolder } from "./helpers";

/**
 * axe-core over every page and every open dialog, on the desktop and phone projects: no serious or critical
 * violation (WCAG 2.x A and AA rules). The scan runs in the page (axe-core's own script, from node_modules).
 */
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Serious and critical violations on the page (or inside `within`), as readable lines. */
async function violations(page: Page, within?: string): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async (context) => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: unknown[] }> } })
      .axe;
    const result = await axe.run(context ?? document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      resultTypes: ["violations"],
    });
    return result.violations;
  }, within ?? null);
  return (found as Violation[])
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function expectClean(page: Page, what: string, within?: string) {
  expect(await violations(page, within), `${what} (${page.url()})`).toEqual([]);
}

let dir: string;
let workspaceId: string;
let token: string;
/** The card the scan admitted; denied afterwards whatever happened, so later specs find the queue as it was. */
let admitted: string | null = null;

test.afterEach(async ({ page, baseURL }) => {
  if (!admitted) return;
  const id = admitted;
  admitted = null;
  const res = await page.request.get(`/api/v1/cards/${id}`);
  const { card } = (await res.json()) as { card: { hash: string; status: string } };
  if (card.status !== "pending") return;
  const answer = await page.request.post(`/api/v1/cards/${id}/answer`, {
    headers: { origin: baseURL! },
    data: { outcome: "deny", hash: card.hash },
  });
  expect(answer.status()).toBe(200);
});

test.beforeAll(() => {
  dir = fs.realpathSync(tempFolder("a11y-ws"));
  fs.mkdirSync(path.join(dir, ".claude"));
  fs.writeFileSync(
    path.join(dir, ".claude", "settings.json"),
    `{\n  "permissions": {\n    "allow": ["Bash(git status)", "Bash(bash:*)", "Read(docs/**)"],\n    "deny": ["Bash(rm -rf *)"]\n  }\n}\n`,
  );
  const added = cockpit(["workspace", "add", dir]);
  expect(added).toContain(dir);
  const lines = cockpit(["agent-token", "create", "--workspace", dir]).trim().split("\n");
  token = lines[lines.length - 1]!.trim();
});

async function admit(page: Page, command: string): Promise<string> {
  const res = await page.request.post("/api/agent/v1/cards", {
    headers: { authorization: `Bearer ${token}` },
    data: { agent: "claude-code", sessionId: `a11y-${test.info().project.name}`, tool: "Bash", input: { command } },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test("every page and every open dialog has no serious or critical axe violation", async ({ page, browser }) => {
  // Twelve pages and dialogs, each scanned in full: more than one ordinary test's time on a loaded machine.
  test.slow();
  // Signed out: the login page, an invite that no longer works.
  const anonymous = await browser.newPage();
  await anonymous.goto("/login");
  await expect(anonymous.getByRole("heading").first()).toBeVisible();
  await expectClean(anonymous, "login page");
  await anonymous.goto("/invite?token=not-a-real-invite");
  await expect(anonymous.getByTestId("invite-gone")).toBeVisible();
  await expectClean(anonymous, "invite page (gone)");
  await anonymous.close();

  await signIn(page);
  const workspaces = (await (await page.request.get("/api/v1/workspaces")).json()) as {
    workspaces: { id: string; path: string }[];
  };
  workspaceId = workspaces.workspaces.find((w) => w.path === dir)!.id;
  const marker = `${test.info().project.name}${Date.now().toString(36)}`;
  const id = await admit(page, `kubectl delete pod web-${marker} --namespace prod`);
  admitted = id;

  for (const [url, ready] of [
    ["/cards", () => page.getByTestId("card").first()],
    [`/cards/${id}`, () => page.getByRole("button", { name: "Allow once" })],
    [`/rules?workspace=${workspaceId}`, () => page.getByTestId("entry").first()],
    ["/audit", () => page.getByRole("heading", { level: 1 })],
    ["/settings", () => page.getByRole("heading", { name: "Your sessions" })],
    ["/settings/notifications", () => page.getByRole("heading", { level: 1 })],
    ["/workspaces", () => page.getByTestId("workspace").first()],
  ] as const) {
    await page.goto(url);
    await expect(ready()).toBeVisible();
    await expectClean(page, `page ${url}`);
  }

  // The card's inline "Always allow" confirmation (the remember chooser's second step).
  await page.goto(`/cards/${id}`);
  await page.getByRole("button", { name: /Always allow/ }).click();
  const confirm = page.getByRole("group", { name: "Confirm always allow" });
  await expect(confirm).toBeVisible();
  await expectClean(page, "Always allow confirmation");
  await page.keyboard.press("Escape");
  await expect(confirm).toHaveCount(0);

  // The Rules page's dialogs: add, revoke, narrow.
  await page.goto(`/rules?workspace=${workspaceId}`);
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectClean(page, "Add rule dialog");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  const gitStatus = page.getByTestId("entry").filter({ has: page.getByText("Bash(git status)", { exact: true }) });
  await gitStatus.getByRole("button", { name: /Revoke/ }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectClean(page, "Revoke dialog");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  const broad = page.getByTestId("entry").filter({ has: page.getByText("Bash(bash:*)", { exact: true }) });
  await broad.getByRole("button", { name: "Narrow Bash(bash:*)", exact: true }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectClean(page, "Narrow dialog");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // The app's own offline page (what the service worker serves when the server is down).
  await page.goto("/offline.html");
  await expect(page.getByRole("heading").first()).toBeVisible();
  await expectClean(page, "offline page");
});
