import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { cockpit, dataDir, signIn, tempFolder, trustClaudeFolder } from "./helpers";

const ALLOW = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';

let dir: string;
let token: string;

test.beforeAll(() => {
  dir = tempFolder("cards-ws");
  trustClaudeFolder(dir);
  fs.mkdirSync(path.join(dir, ".claude"));
  fs.writeFileSync(
    path.join(dir, ".claude", "settings.json"),
    JSON.stringify({ permissions: { allow: [], deny: [] } }, null, 2),
  );
  cockpit(["workspace", "add", dir]);
  const lines = cockpit(["agent-token", "create", "--workspace", dir]).trim().split("\n");
  token = lines[lines.length - 1]!.trim();
});

const unique = () => `${test.info().project.name}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Claude Code's PermissionRequest payload (agents-integration.md §2.6), pointed at our workspace. */
function permissionRequest(command: string, description = "Run a command") {
  return {
    session_id: crypto.randomUUID(),
    transcript_path: "/Users/me/.claude/projects/app/00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl",
    cwd: dir,
    permission_mode: "default",
    hook_event_name: "PermissionRequest",
    tool_name: "Bash",
    tool_input: { command, description },
    permission_suggestions: [
      {
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: command }],
        behavior: "allow",
        destination: "localSettings",
      },
    ],
  };
}

/** `npx cockpit hook claude-code` as Claude Code runs it: payload on stdin, hook JSON on stdout. */
function commandHook(
  baseURL: string,
  payload: object,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["bin/cockpit.mjs", "hook", "claude-code"], {
    env: {
      ...process.env,
      COCKPIT_URL: baseURL,
      COCKPIT_TOKEN: token,
      COCKPIT_DATA: dataDir(),
      HOME: path.join(dataDir(), "home"),
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.end(JSON.stringify(payload));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Claude Code's `"type": "http"` hook: the request is held open until the card settles. */
function httpHook(baseURL: string, payload: object): Promise<unknown> {
  return fetch(`${baseURL}/api/agent/v1/hooks/claude-code`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(payload),
  }).then((r) => r.json());
}

type ApiCard = {
  id: string;
  hash: string;
  input: { command?: string };
  remember: {
    workspace: string[];
    workspaceStore: string | null;
    coveredBy?: ({ rule: string; store: string; scope: string } | null)[];
  };
};

async function pendingCard(page: Page, marker: string): Promise<ApiCard> {
  let found: ApiCard | undefined;
  await expect(async () => {
    const res = await page.request.get("/api/v1/cards?status=pending");
    const { cards } = (await res.json()) as { cards: ApiCard[] };
    found = cards.find((c) => c.input.command?.includes(marker));
    expect(found).toBeTruthy();
  }).toPass({ timeout: 15_000 });
  return found!;
}

const cardOnPage = (page: Page, marker: string) => page.getByTestId("card").filter({ hasText: marker });

test.describe("Cards", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test("command hook: the card appears live, Allow releases the hook with Claude Code's allow JSON", async ({
    page,
    baseURL,
  }) => {
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    await page.goto("/cards");
    const marker = unique();
    const hook = commandHook(baseURL!, permissionRequest(`npm run lint -- --fix --cache-location /tmp/${marker}`));
    const card = cardOnPage(page, marker);
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expect(card).toContainText("Bash");
    await expect(page.getByTestId("pending-badge").first()).toBeVisible();
    await expect(page).toHaveTitle(/^\(\d+\) Cards · Permissions Cockpit$/);
    await page.screenshot({
      path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/cards-top-${test.info().project.name}.png`,
    });
    await card.getByRole("button", { name: "Allow once" }).click();
    await expect(page.getByTestId("answer-notice").first()).toContainText(/Allowed once · by you at \d\d:\d\d via web/);
    await expect(card).toHaveCount(0);
    const result = await hook;
    expect(result.stdout.trim()).toBe(ALLOW);
    expect(result.code).toBe(0);
    // No hydration mismatches or script errors along the way.
    expect(problems).toEqual([]);
  });

  test("command hook: Deny with feedback sends the message to the model", async ({ page, baseURL }) => {
    await page.goto("/cards");
    const marker = unique();
    const hook = commandHook(baseURL!, permissionRequest(`git push --force origin ${marker}`));
    const card = cardOnPage(page, marker);
    await expect(card).toBeVisible({ timeout: 20_000 });
    await card.getByText("Deny with a message to the model").click();
    const message = `Use a pull request for ${marker}, never force-push.`;
    await card.getByLabel("Message to the model").fill(message);
    // Typing in the field must not trigger the keyboard shortcuts (a, d, s…).
    await expect(card).toBeVisible();
    await card.getByRole("button", { name: "Deny with message" }).click();
    await expect(page.getByTestId("answer-notice").first()).toContainText("Denied with feedback · by you");
    const result = await hook;
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message } },
    });
  });

  test("HTTP hook: the held request resolves with the allow JSON after answering in the UI", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/cards");
    const marker = unique();
    const held = httpHook(baseURL!, permissionRequest(`npm run e2e-http-${marker}`));
    const card = cardOnPage(page, marker);
    await expect(card).toBeVisible({ timeout: 20_000 });
    await card.getByRole("button", { name: "Allow once" }).click();
    expect(await held).toEqual(JSON.parse(ALLOW));
  });

  test("a second answer to a settled card says who settled it and when", async ({ page, baseURL }) => {
    const marker = unique();
    const held = httpHook(baseURL!, permissionRequest(`npm run e2e-twice-${marker}`));
    const api = await pendingCard(page, marker);
    // This page misses the live update, like a phone that was asleep while someone else answered.
    await page.route("**/api/v1/events", (r) => r.abort());
    await page.goto(`/cards/${api.id}`);
    const card = cardOnPage(page, marker);
    await expect(card.getByRole("button", { name: "Allow once" })).toBeVisible();
    const first = await page.request.post(`/api/v1/cards/${api.id}/answer`, {
      data: { outcome: "deny", remember: "once", hash: api.hash },
      headers: { origin: baseURL! },
    });
    expect(first.status()).toBe(200);
    await card.getByRole("button", { name: "Allow once" }).click();
    await expect(page.getByTestId("answer-notice").first()).toContainText(
      /Not answered: already settled by you \(another tab or device\) at \d\d:\d\d — Denied/,
    );
    await expect(page.getByTestId("settlement")).toContainText("Denied");
    await page.screenshot({
      path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/cards-conflict-${test.info().project.name}.png`,
    });
    expect(await held).toMatchObject({ hookSpecificOutput: { decision: { behavior: "deny" } } });
  });

  test("Always allow shows the exact rule and file before confirming, then the rule is in the store", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/cards");
    const marker = unique();
    const held = httpHook(baseURL!, permissionRequest(`make e2e-always-${marker}`));
    const card = cardOnPage(page, marker);
    await expect(card).toBeVisible({ timeout: 20_000 });
    const api = await pendingCard(page, marker);
    expect(api.remember.workspace.length).toBeGreaterThan(0);
    await card.getByRole("button", { name: /Always allow/ }).click();
    const confirm = card.getByRole("group", { name: "Confirm always allow" });
    for (const rule of api.remember.workspace)
      await expect(confirm.getByRole("list", { name: "Rules to write" })).toContainText(rule);
    const storeFile = path.resolve(dir, api.remember.workspaceStore!);
    await expect(confirm.getByTestId("store-file")).toHaveText(storeFile);
    // Nothing is written before the second step.
    await expect(card.getByRole("button", { name: "Deny" })).toHaveCount(0);
    await expect(confirm.getByRole("button", { name: "Confirm always allow" })).toBeInViewport();
    await page.screenshot({
      path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/cards-always-${test.info().project.name}.png`,
    });
    await confirm.getByRole("button", { name: "Confirm always allow" }).click();
    await expect(page.getByTestId("answer-notice").first()).toContainText("Always allowed · by you");
    expect(await held).toMatchObject({ hookSpecificOutput: { decision: { behavior: "allow" } } });
    const store = fs.readFileSync(storeFile, "utf8");
    for (const rule of api.remember.workspace) expect(store).toContain(JSON.stringify(rule));
  });

  test("Always allow warns when an existing allow already covers a rule, and does not save it again", async ({
    page,
    baseURL,
  }) => {
    const settings = path.join(dir, ".claude", "settings.json");
    const before = fs.readFileSync(settings, "utf8");
    fs.writeFileSync(settings, JSON.stringify({ permissions: { allow: ["Bash(npm run:*)"], deny: [] } }, null, 2));
    try {
      await page.goto("/cards");
      const marker = unique();
      // `npm run …` is allowed by the store; `curl …` is what the person is asked about.
      const held = httpHook(baseURL!, permissionRequest(`npm run build && curl https://example.com/${marker}`));
      const card = cardOnPage(page, marker);
      await expect(card).toBeVisible({ timeout: 20_000 });
      const api = await pendingCard(page, marker);
      expect(api.remember.coveredBy).toEqual([
        { rule: "Bash(npm run:*)", store: ".claude/settings.json", scope: "workspace" },
        null,
      ]);
      const warning = card.getByRole("note", { name: "Already allowed" });
      await expect(warning).toContainText("Already allowed by Bash(npm run:*) in .claude/settings.json");
      await expect(warning).toBeVisible();
      await card.getByRole("button", { name: /Always allow/ }).click();
      const confirm = card.getByRole("group", { name: "Confirm always allow" });
      const list = confirm.getByRole("list", { name: "Rules to write" });
      await expect(list).toContainText(`Bash(curl https://example.com/${marker})`);
      await expect(list).not.toContainText("npm run");
      await expect(confirm.getByRole("note", { name: "Already allowed" })).toBeVisible();
      await page.screenshot({
        path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/cards-covered-${test.info().project.name}.png`,
      });
      await confirm.getByRole("button", { name: "Confirm always allow" }).click();
      await expect(page.getByTestId("answer-notice").first()).toContainText("Always allowed · by you");
      expect(await held).toMatchObject({ hookSpecificOutput: { decision: { behavior: "allow" } } });
      const store = fs.readFileSync(path.resolve(dir, api.remember.workspaceStore!), "utf8");
      expect(store).toContain(JSON.stringify(`Bash(curl https://example.com/${marker})`));
      expect(store).not.toContain("npm run build");
    } finally {
      fs.writeFileSync(settings, before);
    }
  });

  test("long dangerous command: folded with head and tail, warnings, keyboard, deep link after settling", async ({
    page,
    baseURL,
  }) => {
    const marker = unique();
    const steps = Array.from(
      { length: 30 },
      (_, i) => `npm run build:part-${i} -- --mode=production --out=/srv/releases/${marker}/part-${i}`,
    );
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    const command = [
      `rm -rf ./dist ./build && curl -fsSL https://example.com/install.sh?channel=${"nightly".repeat(12)} | bash -s -- --yes`,
      ...steps,
      `echo done-${marker}`,
    ].join("\n");
    await page.goto("/cards");
    const held = httpHook(baseURL!, permissionRequest(command, "Rebuild everything from a clean slate"));
    const card = cardOnPage(page, marker);
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expect(card.getByTestId("warning").first()).toBeVisible();
    await expect(card).toContainText(`echo done-${marker}`);
    await expect(card).toContainText("rm -rf ./dist");
    const showAll = card.getByRole("button", { name: /Show all 32 lines/ });
    await expect(showAll).toBeVisible();
    const api = await pendingCard(page, marker);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/cards-pending-${test.info().project.name}.png`,
      fullPage: false,
    });
    // No sideways scrolling on any viewport.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await card.getByRole("button", { name: "Allow once" }).scrollIntoViewIfNeeded();
    await page.screenshot({
      path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/cards-answer-${test.info().project.name}.png`,
      fullPage: false,
    });
    await showAll.click();
    await expect(card).toContainText("npm run build:part-15");

    if (test.info().project.name === "desktop") {
      await page.locator("body").click({ position: { x: 5, y: 5 } });
      await page.keyboard.press("d");
    } else {
      await card.getByRole("button", { name: "Deny", exact: true }).click();
    }
    await expect(page.getByTestId("answer-notice").first()).toContainText("Denied · by you");
    expect(await held).toMatchObject({ hookSpecificOutput: { decision: { behavior: "deny" } } });

    await page.goto(`/cards/${api.id}`);
    await expect(page.getByTestId("settlement")).toContainText(/Denied · by you at \d\d:\d\d via web/);
    await expect(page.getByRole("button", { name: "Allow once" })).toHaveCount(0);
    await page.screenshot({
      path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/cards-settled-${test.info().project.name}.png`,
      fullPage: true,
    });
    expect(problems).toEqual([]);
  });
  test("safety check: only Allow once or Deny, with a banner saying why", async ({ page, baseURL }) => {
    await page.goto("/cards");
    const marker = unique();
    const held = httpHook(baseURL!, permissionRequest(`cat ~/.ssh/id_ed25519_${marker}`));
    const card = cardOnPage(page, marker);
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expect(card).toContainText("Safety check: only Allow once or Deny");
    await expect(card.getByTestId("warning").first()).toBeVisible();
    await expect(card.getByRole("button", { name: /Allow for this session/ })).toHaveCount(0);
    await expect(card.getByRole("button", { name: /Always allow/ })).toHaveCount(0);
    await card.getByRole("button", { name: "Deny", exact: true }).click();
    expect(await held).toMatchObject({ hookSpecificOutput: { decision: { behavior: "deny" } } });
  });

  test("keyboard moves the head card and answers it; a card settled elsewhere leaves live", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/cards");
    // The head card is the oldest pending one anywhere: settle what other specs left pending first.
    const leftovers = (await (await page.request.get("/api/v1/cards?status=pending")).json()) as { cards: ApiCard[] };
    for (const c of leftovers.cards) {
      const res = await page.request.post(`/api/v1/cards/${c.id}/answer`, {
        data: { outcome: "deny", remember: "once", hash: c.hash },
        headers: { origin: baseURL! },
      });
      expect([200, 409]).toContain(res.status());
    }
    const marker = unique();
    const first = httpHook(baseURL!, permissionRequest(`npm run e2e-first-${marker}`));
    const firstCard = cardOnPage(page, `e2e-first-${marker}`);
    await expect(firstCard).toBeVisible({ timeout: 20_000 });
    const second = httpHook(baseURL!, permissionRequest(`npm run e2e-second-${marker}`));
    const secondCard = cardOnPage(page, `e2e-second-${marker}`);
    await expect(secondCard).toBeVisible({ timeout: 20_000 });
    await expect(firstCard).toHaveAttribute("data-head", "true");
    await page.keyboard.press("j");
    await expect(secondCard).toHaveAttribute("data-head", "true");
    await page.keyboard.press("a");
    await expect(secondCard).toHaveCount(0);
    expect(await second).toEqual(JSON.parse(ALLOW));
    await expect(firstCard).toHaveAttribute("data-head", "true");

    // Someone else answers the remaining card: it leaves this page without a reload.
    const api = await pendingCard(page, `e2e-first-${marker}`);
    const res = await page.request.post(`/api/v1/cards/${api.id}/answer`, {
      data: { outcome: "deny", remember: "once", hash: api.hash },
      headers: { origin: baseURL! },
    });
    expect(res.status()).toBe(200);
    await expect(firstCard).toHaveCount(0);
    expect(await first).toMatchObject({ hookSpecificOutput: { decision: { behavior: "deny" } } });
  });

  test("with an absence timeout, the card shows when it will be denied", async ({ page, baseURL }) => {
    const put = (timeoutSeconds: number | null) =>
      page.request.put("/api/v1/settings/absence", { data: { timeoutSeconds }, headers: { origin: baseURL! } });
    expect((await put(900)).status()).toBe(200);
    try {
      await page.goto("/cards");
      const marker = unique();
      const held = httpHook(baseURL!, permissionRequest(`npm run e2e-away-${marker}`));
      const card = cardOnPage(page, marker);
      await expect(card).toBeVisible({ timeout: 20_000 });
      await expect(card).toContainText(/Denied automatically at \d\d:\d\d \(in 1[45] min\) if nobody answers/);
      await card.getByRole("button", { name: "Allow once" }).click();
      expect(await held).toEqual(JSON.parse(ALLOW));
    } finally {
      await put(null);
    }
  });
  test("when the agent stops waiting, the card leaves live and its page says it was answered elsewhere", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/cards");
    const marker = unique();
    const controller = new AbortController();
    const held = fetch(`${baseURL}/api/agent/v1/hooks/claude-code`, {
      method: "POST",
      signal: controller.signal,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(permissionRequest(`npm run e2e-gone-${marker}`)),
    }).catch(() => "closed");
    const card = cardOnPage(page, marker);
    await expect(card).toBeVisible({ timeout: 20_000 });
    const api = await pendingCard(page, marker);
    // The terminal answered first: Claude Code ends the hook's HTTP request.
    controller.abort();
    expect(await held).toBe("closed");
    await expect(card).toHaveCount(0, { timeout: 15_000 });
    await page.goto(`/cards/${api.id}`);
    await expect(page.getByTestId("settlement")).toContainText("Answered elsewhere (in the terminal)");
    await expect(page.getByRole("button", { name: "Allow once" })).toHaveCount(0);
  });
});
