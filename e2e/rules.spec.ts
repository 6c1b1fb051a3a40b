import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { appOrigin, dataDir, signIn, tempFolder } from "./helpers";

const SHOTS = process.env.E2E_SCREENSHOTS ?? "test-results";

const COMMANDCODE = `// Command Code settings — ünïcode ✓
{
  /* rules */
  "permissions": {
    "allow": [
      "Shell(git:*)", // everything git
      "Edit(src/**)",
      "mcp__github__*",
    ],
    "deny": ["Shell(rm -rf *)"],
  },
}
`;
const CLAUDE = `{
  "permissions": {
    "allow": ["Read(docs/**)", "WebFetch(domain:example.com)"],
    "ask": ["Bash(git push:*)", "Bash(unclosed"]
  }
}
`;
const CLAUDE_LOCAL_INVALID = `{
  "permissions": {
    "allow": ["Bash(ls)",]
  }
}
`;
const MEVEDEL = `;; project permissions
(:rules
 (("Bash" :pattern "git log*" :action allow)
  ("Bash" :pattern "npx @emacs-eask/cli *"
   :network t
   :file-system ((:path "~/.npm" :access write :recursive t))
   :action allow))
 :resource-grants
 ((:path "~/notes" :access read)
  (:path "/srv/data" :access write :recursive t)))
`;

interface Fixture {
  folder: string;
  id: string;
  file: (rel: string) => string;
  globalFile: string;
  globalText: string;
}

/** A registered workspace with all three formats plus an invalid store, and a fresh global store. */
async function setUp(page: Page, stores: Record<string, string> = {}): Promise<Fixture> {
  await signIn(page);
  const folder = fs.realpathSync(tempFolder("rules"));
  const all = {
    ".commandcode/settings.json": COMMANDCODE,
    ".claude/settings.json": CLAUDE,
    ".claude/settings.local.json": CLAUDE_LOCAL_INVALID,
    ".mevedel/permissions.el": MEVEDEL,
    ...stores,
  };
  for (const [rel, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), text);
  }
  fs.mkdirSync(path.join(folder, "src", "app"), { recursive: true });
  const globalFile = path.join(dataDir(), "home", ".claude", "settings.json");
  const marker = path.basename(folder);
  const globalText = `{\n  "permissions": {\n    "allow": [\n      "Read(~/global-${marker}/**)",\n      "Bash(rules-fixture-tool:*)"\n    ]\n  }\n}\n`;
  fs.mkdirSync(path.dirname(globalFile), { recursive: true });
  fs.writeFileSync(globalFile, globalText);
  const res = await page.request.post("/api/v1/workspaces", {
    headers: { origin: appOrigin() },
    data: { path: folder },
  });
  expect(res.status()).toBe(201);
  const { workspace } = (await res.json()) as { workspace: { id: string } };
  return { folder, id: workspace.id, file: (rel) => path.join(folder, rel), globalFile, globalText };
}

const entry = (page: Page, rule: string) =>
  page.getByTestId("entry").filter({ has: page.getByText(rule, { exact: true }) });
const store = (page: Page, file: string) => page.locator(`[data-testid="store"][data-store-path="${file}"]`);

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test("lists session, workspace and global entries by store; the invalid store shows its error and no write controls", async ({
  page,
}) => {
  const fx = await setUp(page);
  const origin = appOrigin();
  const added = await page.request.post("/api/v1/session-entries", {
    headers: { origin },
    data: {
      workspace: fx.id,
      agentSessionId: "agent-7",
      agent: "claude-code",
      action: "allow",
      rule: "Bash(npm test)",
    },
  });
  expect(added.status()).toBe(201);

  await page.goto(`/rules?workspace=${fx.id}`);
  await expect(page.getByTestId("scope-session")).toContainText("Bash(npm test)");
  await expect(page.getByTestId("scope-session")).toContainText("session agent-7");
  const workspaceScope = page.getByTestId("scope-workspace");
  await expect(workspaceScope).toContainText("Shell(git:*)");
  await expect(page.getByTestId("scope-global")).toContainText("Bash(rules-fixture-tool:*)");
  await expect(store(page, fx.globalFile)).toContainText("Claude Code JSON");

  const cc = store(page, fx.file(".commandcode/settings.json"));
  await expect(cc).toContainText("Command Code JSONC");
  await expect(cc).toContainText("valid");
  await expect(entry(page, "Shell(git:*)")).toContainText("line 6");
  await expect(entry(page, "Shell(rm -rf *)").locator("span", { hasText: /^deny$/ })).toBeVisible();

  const grant = entry(page, '(:path "/srv/data" :access write :recursive t)');
  await expect(grant.getByTestId("grant-extent")).toHaveText("recursive");
  await expect(grant).toContainText("write");
  await expect(entry(page, '(:path "~/notes" :access read)').getByTestId("grant-extent")).toHaveText("exact");
  const profile = page.getByTestId("entry").filter({ hasText: "npx @emacs-eask/cli" });
  await expect(profile).toContainText("profile");
  await expect(profile).toContainText("network on");
  await expect(profile.getByRole("list", { name: "Profile file-system grants" })).toContainText("~/.npm");

  await expect(entry(page, "Bash(unclosed")).toContainText("Malformed:");

  const invalid = store(page, fx.file(".claude/settings.local.json"));
  await expect(invalid).toHaveAttribute("data-valid", "false");
  await expect(invalid).toContainText("invalid");
  await expect(invalid.getByRole("note")).toContainText(/line \d+, column \d+/);
  await expect(invalid.getByRole("button")).toHaveCount(0);
  await expect(invalid.getByTestId("entry")).toHaveCount(0);

  await expectNoSidewaysScroll(page);
  for (const button of await page.locator("main button, main select, main input").all()) {
    if (!(await button.isVisible())) continue;
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  const shot = (name: string) => page.screenshot({ path: `${SHOTS}/rules-${name}-${test.info().project.name}.png` });
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot("list-top");
  await entry(page, "Shell(git:*)").scrollIntoViewIfNeeded();
  await shot("list-entries");
  await profile.scrollIntoViewIfNeeded();
  await shot("list-profile");
  await invalid.scrollIntoViewIfNeeded();
  await shot("list-invalid");

  // Session entries are revoked through the same dialog and route.
  await entry(page, "Bash(npm test)")
    .getByRole("button", { name: /Revoke/ })
    .click();
  await expect(page.getByRole("dialog")).toContainText("cockpit database");
  await page.getByRole("dialog").getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Revoked the session entry" })).toBeVisible();
  await expect(page.getByTestId("scope-session")).not.toContainText("Bash(npm test)");
});

test(
  "filters live in the URL: shareable, reload-proof and back-button friendly",
  { tag: "@any-viewport" },
  async ({ page }) => {
    const fx = await setUp(page);
    await page.goto(`/rules?workspace=${fx.id}`);
    await expect(entry(page, "Shell(git:*)")).toBeVisible();

    await page.getByLabel("Action", { exact: true }).selectOption("deny");
    await expect(page).toHaveURL(/action=deny/);
    await expect(entry(page, "Shell(rm -rf *)")).toBeVisible();
    await expect(entry(page, "Shell(git:*)")).toHaveCount(0);

    await page.getByLabel("Action", { exact: true }).selectOption("");
    await page.getByLabel("Scope", { exact: true }).selectOption("workspace");
    await page.getByLabel("Search", { exact: true }).fill("git");
    await expect(page).toHaveURL(/scope=workspace.*q=git|q=git.*scope=workspace/);
    await expect(entry(page, "Shell(git:*)")).toBeVisible();
    await expect(entry(page, "Bash(rules-fixture-tool:*)")).toHaveCount(0);
    await expect(page.getByTestId("scope-global")).toHaveCount(0);

    await page.getByLabel("Tool", { exact: true }).selectOption("Shell");
    await expect(page).toHaveURL(/tool=Shell/);
    await expect(entry(page, "Bash(git push:*)")).toBeVisible(); // Bash is the engine's Shell
    await expect(entry(page, '("Bash" :pattern "git log*" :action allow)')).toBeVisible();

    await page.reload();
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue("git");
    await expect(page.getByLabel("Tool", { exact: true })).toHaveValue("Shell");
    await expect(entry(page, "Read(docs/**)")).toHaveCount(0);

    await page.goBack();
    await expect(page).not.toHaveURL(/tool=Shell/);
    await expect(page.getByLabel("Tool", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue("git");
    await expectNoSidewaysScroll(page);
  },
);

test("revoke names the file and line and removes only that entry's bytes; a global revoke warns before and after", async ({
  page,
}) => {
  const fx = await setUp(page);
  await page.goto(`/rules?workspace=${fx.id}`);
  await entry(page, "Edit(src/**)")
    .getByRole("button", { name: /Revoke/ })
    .click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(fx.file(".commandcode/settings.json"));
  await expect(dialog.getByTestId("revoke-line")).toHaveText('      "Edit(src/**)",');
  await expect(dialog).not.toContainText("every project");
  await page.screenshot({ path: `${SHOTS}/rules-revoke-${test.info().project.name}.png` });
  await dialog.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Revoked line 7" })).toBeVisible();
  expect(fs.readFileSync(fx.file(".commandcode/settings.json"), "utf8")).toBe(
    COMMANDCODE.replace('      "Edit(src/**)",\n', ""),
  );
  await expect(entry(page, "Edit(src/**)")).toHaveCount(0);

  await entry(page, "Bash(rules-fixture-tool:*)")
    .getByRole("button", { name: /Revoke/ })
    .click();
  await expect(dialog.getByRole("note")).toContainText("affects every project");
  await dialog.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: fx.globalFile })).toContainText("affects every project");
  expect(fs.readFileSync(fx.globalFile, "utf8")).toBe(
    fx.globalText.replace(',\n      "Bash(rules-fixture-tool:*)"', ""),
  );
});

test("narrow: a refused candidate shows the engine's reason; a proved one is saved in place", async ({ page }) => {
  const fx = await setUp(page);
  await page.goto(`/rules?workspace=${fx.id}`);
  await entry(page, "Shell(git:*)")
    .getByRole("button", { name: /Narrow/ })
    .click();
  const dialog = page.getByRole("dialog");
  const input = dialog.getByLabel("Narrower entry", { exact: true });
  await expect(input).toHaveValue("Shell(git:*)");
  await input.fill("Shell(npm:*)");
  await expect(dialog.getByTestId("narrow-check")).toContainText("cannot prove narrower:");
  await expect(dialog.getByRole("button", { name: "Save" })).toBeDisabled();

  await dialog.getByRole("listitem").filter({ hasText: "Shell(git status:*)" }).click();
  await expect(input).toHaveValue("Shell(git status:*)");
  await expect(dialog.getByTestId("narrow-check")).toHaveText("narrower");
  await expect(dialog.getByTestId("narrow-check").locator("svg")).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/rules-narrow-${test.info().project.name}.png` });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Narrowed in" })).toBeVisible();
  expect(fs.readFileSync(fx.file(".commandcode/settings.json"), "utf8")).toBe(
    COMMANDCODE.replace('"Shell(git:*)"', '"Shell(git status:*)"'),
  );
  await expect(entry(page, "Shell(git status:*)")).toBeVisible();

  // A mevedel grant narrowed with a suggestion chip: recursive → exact.
  await entry(page, '(:path "/srv/data" :access write :recursive t)')
    .getByRole("button", { name: /Narrow/ })
    .click();
  await dialog
    .getByRole("listitem")
    .filter({ hasText: /^exact$/ })
    .click();
  await expect(dialog.getByTestId("narrow-check")).toHaveText("narrower");
  await expect(dialog.getByTestId("narrow-check").locator("svg")).toHaveCount(1);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(entry(page, '(:path "/srv/data" :access write)').getByTestId("grant-extent")).toHaveText("exact");
  expect(fs.readFileSync(fx.file(".mevedel/permissions.el"), "utf8")).toBe(
    MEVEDEL.replace('(:path "/srv/data" :access write :recursive t)', '(:path "/srv/data" :access write)'),
  );
});

test(
  "a file changed on disk after listing is refused: nothing written, refresh shows the new file",
  { tag: "@any-viewport" },
  async ({ page }) => {
    const fx = await setUp(page);
    await page.goto(`/rules?workspace=${fx.id}`);
    const readAt = await page.getByTestId("read-at").textContent();
    await entry(page, "Read(docs/**)")
      .getByRole("button", { name: /Revoke/ })
      .click();
    const edited = CLAUDE.replace('"Bash(git push:*)"', '"Bash(git push:*)", "Bash(git tag:*)"');
    fs.writeFileSync(fx.file(".claude/settings.json"), edited);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Revoke", exact: true }).click();
    await expect(dialog.getByRole("alert")).toHaveText("The file changed on disk — refresh");
    expect(fs.readFileSync(fx.file(".claude/settings.json"), "utf8")).toBe(edited);
    await dialog.getByRole("button", { name: "Refresh" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(entry(page, "Bash(git tag:*)")).toBeVisible();
    await expect(entry(page, "Read(docs/**)")).toBeVisible();
    expect(readAt).toMatch(/Read from disk at \d\d:\d\d/);

    // The page's Refresh re-reads the files too.
    fs.writeFileSync(
      fx.file(".claude/settings.json"),
      edited.replace('"Bash(git tag:*)"', '"Bash(git tag:*)", "Bash(git stash:*)"'),
    );
    await expect(entry(page, "Bash(git stash:*)")).toHaveCount(0);
    await page.getByRole("button", { name: "Refresh", exact: true }).click();
    await expect(entry(page, "Bash(git stash:*)")).toBeVisible();
  },
);

test("add a rule explicitly: the server's validation error is shown, global warns, the rule appears", async ({
  page,
}) => {
  const fx = await setUp(page);
  await page.goto(`/rules?workspace=${fx.id}`);
  await page.getByRole("button", { name: "Add rule" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Rule", { exact: true }).fill("Bash(git fetch:*)");
  await dialog.getByRole("button", { name: "Add rule" }).click();
  await expect(dialog.getByRole("alert")).toContainText("invalid"); // settings.local.json is the invalid store
  await dialog.getByLabel("File", { exact: true }).selectOption("settings.json");
  await dialog.getByLabel("Rule", { exact: true }).fill("Bash(git fetch");
  await dialog.getByRole("button", { name: "Add rule" }).click();
  await expect(dialog.getByRole("alert")).toContainText("invalid rule");
  await dialog.getByLabel("Rule", { exact: true }).fill("Bash(git fetch:*)");
  await dialog.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added to" })).toContainText(
    fx.file(".claude/settings.json"),
  );
  await expect(entry(page, "Bash(git fetch:*)")).toBeVisible();
  expect(fs.readFileSync(fx.file(".claude/settings.json"), "utf8")).toContain('"Bash(git fetch:*)"');

  await page.getByRole("button", { name: "Add rule" }).click();
  await dialog.getByLabel("Global", { exact: true }).check();
  await expect(dialog.getByRole("note")).toContainText("every project");
  await expect(dialog.getByLabel("File", { exact: true })).toHaveCount(0);
  await dialog.getByLabel("Action", { exact: true }).selectOption("deny");
  await dialog.getByLabel("Rule", { exact: true }).fill("Bash(curl:*)");
  await page.screenshot({ path: `${SHOTS}/rules-add-${test.info().project.name}.png` });
  await dialog.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByRole("status").filter({ hasText: fx.globalFile })).toContainText("affects every project");
  expect(fs.readFileSync(fx.globalFile, "utf8")).toContain('"deny": [');
});

// Timings are printed for a person to read (speed targets live in bench/, never in a test's pass condition).
test(
  "a 5,000-entry settings file: lists, filters to one entry and pages on",
  { tag: "@any-viewport" },
  async ({ page }) => {
    const rules = Array.from({ length: 5000 }, (_, i) => `      "Bash(tool-${i} --flag-${i % 7}:*)"`);
    const big = `{\n  "permissions": {\n    "allow": [\n${rules.join(",\n")}\n    ]\n  }\n}\n`;
    const fx = await setUp(page, { ".claude/settings.json": big });
    const t0 = Date.now();
    await page.goto(`/rules?workspace=${fx.id}`);
    await page.waitForFunction(() => document.querySelector('[data-testid="entry"]') !== null, null, {
      polling: "raf",
    });
    const firstPaint = Date.now() - t0;
    // A long store without problems starts folded (a phone page stays short); one tap on its header opens it.
    const bigStore = store(page, fx.file(".claude/settings.json"));
    await expect(entry(page, "Bash(tool-0 --flag-0:*)")).toBeHidden();
    await bigStore.locator("summary").first().click();
    await expect(entry(page, "Bash(tool-0 --flag-0:*)")).toBeVisible();
    const fcp = Math.round(
      await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1),
    );
    const tApi = Date.now();
    const api = await page.request.get(`/api/v1/entries?workspace=${fx.id}&q=tool-4999&limit=200`);
    expect((await api.json()).matched).toBe(1);
    const apiMs = Date.now() - tApi;
    await expect(page.getByTestId("list-status")).toContainText("of 50");

    const t1 = Date.now();
    await page.getByLabel("Search", { exact: true }).fill("tool-4999");
    // Polled every animation frame: expect()'s back-off would add up to a second to the measurement.
    await page.waitForFunction(
      () => /^1 of 50\d\d entries$/.test(document.querySelector('[data-testid="list-status"]')?.textContent ?? ""),
      null,
      { polling: "raf" },
    );
    await expect(entry(page, "Bash(tool-4999 --flag-1:*)")).toBeVisible();
    const filter = Date.now() - t1;

    await page.getByLabel("Search", { exact: true }).fill("");
    await expect(page.getByTestId("list-status")).toHaveText(/^50\d\d of 50\d\d entries$/);
    const t2 = Date.now();
    await page.getByRole("button", { name: /Show more/ }).scrollIntoViewIfNeeded();
    await expect(page.getByTestId("entry")).toHaveCount(400);
    const nextChunk = Date.now() - t2;
    await expectNoSidewaysScroll(page);
    test.info().annotations.push({
      type: "perf",
      description: `5,000 entries: first entry visible ${firstPaint} ms (FCP ${fcp} ms), filter ${filter} ms (API alone ${apiMs} ms), next chunk ${nextChunk} ms`,
    });
    console.log(
      `[rules perf ${test.info().project.name}] first entry visible ${firstPaint} ms (FCP ${fcp} ms), filter applied ${filter} ms (API alone ${apiMs} ms), next chunk ${nextChunk} ms`,
    );
  },
);
