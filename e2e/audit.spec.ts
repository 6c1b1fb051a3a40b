import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { cockpit, signIn, tempFolder, trustClaudeFolder } from "./helpers";

const SHOTS = process.env.E2E_SCREENSHOTS ?? "test-results";

interface Fixture {
  id: string;
  folder: string;
  marker: string;
}

/**
 * A workspace whose Claude Code store allows `npm test…`, and two calls that rule decided at admission
 * (card.decided_by_rules with rule, store and decision trace), made through the agent API with a real token.
 */
async function setUp(page: Page): Promise<Fixture> {
  await signIn(page);
  const folder = fs.realpathSync(tempFolder("audit"));
  trustClaudeFolder(folder);
  const marker = `${test.info().project.name}${Date.now().toString(36)}`;
  fs.mkdirSync(path.join(folder, ".claude"));
  fs.writeFileSync(
    path.join(folder, ".claude", "settings.json"),
    JSON.stringify({ permissions: { allow: ["Bash(npm test:*)"] } }, null, 2) + "\n",
  );
  cockpit(["workspace", "add", folder]);
  const lines = cockpit(["agent-token", "create", "--workspace", folder]).trim().split("\n");
  const token = lines[lines.length - 1]!.trim();
  for (const command of ["npm test", `npm test -- --grep ${marker}`]) {
    const res = await page.request.post("/api/agent/v1/cards", {
      headers: { authorization: `Bearer ${token}` },
      data: { agent: "claude-code", sessionId: `sess-${marker}`, tool: "Bash", input: { command }, cwd: folder },
    });
    expect(res.status()).toBe(200);
    expect(((await res.json()) as { decision: { decision: string } }).decision.decision).toBe("allow");
  }
  const list = await page.request.get(`/api/v1/workspaces`);
  const { workspaces } = (await list.json()) as { workspaces: { id: string; path: string }[] };
  return { id: workspaces.find((w) => w.path === folder)!.id, folder, marker };
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test("filters the timeline from the URL, opens an event's rule, store and trace, and exports the filtered set", async ({
  page,
}) => {
  const fx = await setUp(page);
  // The workspace's log also holds workspace.added and agent_token.created; card.* keeps the decisions.
  await page.goto(`/audit?workspace=${fx.id}`);
  await expect(page.getByTestId("audit-event")).toHaveCount(4);
  await page.getByLabel("Event type").fill("card.*");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("audit-event")).toHaveCount(2);
  await expect(page.getByTestId("audit-chart")).toContainText("allow 2");

  // Free-text filter through the form: it lands in the URL and narrows the list.
  await page.getByLabel("Search").fill(`grep ${fx.marker}`);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`q=grep(\\+|%20)${fx.marker}`));
  await expect(page).toHaveURL(new RegExp(`workspace=${fx.id}`));
  const event = page.getByTestId("audit-event");
  await expect(event).toHaveCount(1);
  // The row reads as a sentence (which rule allowed which command); the raw event type is in the details.
  await expect(event.getByTestId("audit-sentence")).toHaveText(
    `Rule Bash(npm test:*) allowed npm test -- --grep ${fx.marker}`,
  );

  await event.getByTestId("audit-event-toggle").click();
  const details = event.getByTestId("audit-details");
  await expect(details).toContainText("card.decided_by_rules");
  await expect(details.getByTestId("audit-rule")).toHaveText("Bash(npm test:*)");
  await expect(details).toContainText(path.join(fx.folder, ".claude", "settings.json"));
  await expect(details).toContainText("config");
  await expect(details.getByTestId("audit-trace").locator("li").first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/audit-details-${test.info().project.name}.png`, fullPage: true });
  await expectNoSidewaysScroll(page);

  // A reload keeps the filters (they live in the URL).
  await page.reload();
  await expect(page.getByTestId("audit-event")).toHaveCount(1);
  await expect(page.getByLabel("Search")).toHaveValue(`grep ${fx.marker}`);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-.*\.csv$/);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  const rows = csv.trim().split("\r\n");
  expect(rows[0]).toMatch(/^seq,at,type,workspace,actor,/);
  expect(rows).toHaveLength(2);
  expect(rows[1]).toContain(`npm test -- --grep ${fx.marker}`);

  const [jsonl] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export JSONL" }).click(),
  ]);
  const lines = fs
    .readFileSync((await jsonl.path())!, "utf8")
    .trim()
    .split("\n");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({ type: "card.decided_by_rules", rule: "Bash(npm test:*)" });
});

test(
  "the narrow dialog shows which logged calls would now ask before saving",
  { tag: "@any-viewport" },
  async ({ page }) => {
    const fx = await setUp(page);
    await page.goto(`/rules?workspace=${fx.id}`);
    const row = page.getByTestId("entry").filter({ has: page.getByText("Bash(npm test:*)", { exact: true }) });
    await expect(row.getByTestId("entry-usage")).toContainText("used 2×");
    await row.getByRole("button", { name: /Narrow/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Narrower entry", { exact: true }).fill("Bash(npm test)");
    await expect(dialog.getByTestId("narrow-check")).toHaveText("narrower");
    await expect(dialog.getByTestId("narrow-check").locator("svg")).toHaveCount(1);
    const impact = dialog.getByTestId("impact-preview");
    await expect(impact.getByTestId("impact-summary")).toContainText("Replayed 2 logged calls");
    await expect(impact.getByTestId("impact-summary")).toContainText("1 would now ask");
    await expect(impact).toContainText(`npm test -- --grep ${fx.marker}`);
    await page.screenshot({ path: `${SHOTS}/audit-impact-narrow-${test.info().project.name}.png` });
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // The revoke dialog previews too: both calls would ask without the entry.
    await row.getByRole("button", { name: /Revoke/ }).click();
    await expect(page.getByRole("dialog").getByTestId("impact-summary")).toContainText("2 would now ask");
  },
);
