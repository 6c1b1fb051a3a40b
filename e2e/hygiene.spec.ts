import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { appOrigin, signIn, tempFolder } from "./helpers";

const PROJECT = `{
  "permissions": {
    "allow": [
      "Bash(git:*)",
      "Bash(npm run test:*)",
      "Bash(python:*)"
    ]
  }
}
`;
const LOCAL = `{
  "permissions": {
    "allow": [
      "Bash(git status:*)",
      "Bash(npm run test:*)",
      "Bash(make lint)"
    ]
  }
}
`;
const LOCAL_AFTER = `{
  "permissions": {
    "allow": [
      "Bash(make lint)"
    ]
  }
}
`;

/** A registered workspace whose Claude Code files hold one covered, one duplicate and one over-broad rule. */
async function setUp(page: Page): Promise<{ id: string; local: string }> {
  await signIn(page);
  const folder = fs.realpathSync(tempFolder("hygiene"));
  fs.mkdirSync(path.join(folder, ".claude"), { recursive: true });
  fs.writeFileSync(path.join(folder, ".claude/settings.json"), PROJECT);
  fs.writeFileSync(path.join(folder, ".claude/settings.local.json"), LOCAL);
  const res = await page.request.post("/api/v1/workspaces", {
    headers: { origin: appOrigin() },
    data: { path: folder },
  });
  expect(res.status()).toBe(201);
  const { workspace } = (await res.json()) as { workspace: { id: string } };
  return { id: workspace.id, local: path.join(folder, ".claude/settings.local.json") };
}

const entry = (page: Page, rule: string) =>
  page.getByTestId("entry").filter({ has: page.getByText(rule, { exact: true }) });

test("hygiene summary, badges with their reasons, and a clean-up that shows each file's diff before writing", async ({
  page,
}) => {
  const fx = await setUp(page);
  await page.goto(`/rules?workspace=${fx.id}`);
  const summary = page.getByTestId("hygiene-summary");
  await expect(summary).toContainText(/\d+ rules: 1 over-broad, 1 duplicate, 1 covered/);
  await expect(summary).toContainText(/no usage data yet/i);

  // Problems first, coloured by severity: the over-broad rule leads its file.
  const project = page.locator('[data-testid="store"][data-store-path$=".claude/settings.json"]');
  await expect(project.getByTestId("entry").first()).toContainText("Bash(python:*)");
  await expect(project.getByTestId("entry").first()).toHaveAttribute("data-severity", "error");

  // The counts are filters (in the URL): only the over-broad rule, with a one-tap "Narrow to…".
  await summary.getByTestId("finding-filter-over-broad").click();
  await expect(page).toHaveURL(/finding=over-broad/);
  await expect(page.getByTestId("entry")).toHaveCount(1);
  const python = entry(page, "Bash(python:*)");
  await expect(python).toBeVisible();
  // Badges and filters are 44 px targets.
  for (const target of [summary.getByTestId("finding-filter-over-broad"), python.locator("summary").first()])
    expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  const narrowTo = python.getByTestId("narrow-to");
  await expect(narrowTo).toContainText(/Narrow to (Bash\(python .+\)|ask)/);
  const suggested = (await narrowTo.locator("code").textContent())!;
  await narrowTo.click();
  const narrowing = page.getByRole("dialog", { name: "Narrow entry" });
  await expect(narrowing.getByLabel("Narrower entry")).toHaveValue(suggested);
  await expect(narrowing.getByTestId("narrow-check")).toContainText("narrower");
  await page.keyboard.press("Escape");
  await expect(narrowing).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("entry")).toHaveCount(1);
  await page.getByTestId("finding-filter-clear").click();
  await expect(page).not.toHaveURL(/finding=/);

  // Badges: kind on the row, the message unfolds on click.
  const covered = entry(page, "Bash(git status:*)");
  await expect(covered.getByTestId("hygiene-badges")).toContainText("covered");
  await covered.getByText("covered", { exact: true }).click();
  await expect(covered).toContainText("is covered by Bash(git:*)");
  await expect(entry(page, "Bash(python:*)").getByTestId("hygiene-badges")).toContainText("over-broad");

  // Clean up: preview first, nothing written until confirmed.
  await summary.getByRole("button", { name: "Clean up (2)" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("cleanup-proof")).toContainText("0 decisions change");
  const diff = dialog.getByTestId("cleanup-diff");
  await expect(diff).toContainText('-      "Bash(git status:*)",');
  await expect(diff).toContainText('-      "Bash(npm run test:*)",');
  await expect(diff).toContainText("settings.local.json (after clean-up)");
  expect(fs.readFileSync(fx.local, "utf8")).toBe(LOCAL);
  await page.screenshot({ path: `test-results/hygiene-cleanup-${test.info().project.name}.png` });
  await dialog.getByRole("button", { name: "Remove 2 entries" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Removed 2 entries" })).toBeVisible();
  expect(fs.readFileSync(fx.local, "utf8")).toBe(LOCAL_AFTER);
  await expect(summary.getByTestId("hygiene-text")).toHaveText(/^\d+ rules: 1 over-broad$/);
  await expect(entry(page, "Bash(git status:*)")).toHaveCount(0);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});
