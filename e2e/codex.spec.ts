import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { appOrigin, cockpit, dataDir, signIn, tempFolder } from "./helpers";

// Codex CLI end to end: `cockpit connect codex`, `cockpit hook codex` fed Codex's PermissionRequest payload, the card
// answered in the browser (desktop and phone projects), Codex's hook output, and what "Always allow" writes.

const home = () => path.join(dataDir(), "home");
const codexHome = () => path.join(home(), ".codex");
let dir: string;
let token: string;

test.beforeAll(() => {
  dir = tempFolder("codex-ws");
  fs.mkdirSync(path.join(dir, ".git"));
  fs.mkdirSync(path.join(codexHome(), "rules"), { recursive: true });
  fs.writeFileSync(
    path.join(codexHome(), "rules", "team.rules"),
    '# team rules\nprefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt", justification="talks to the remote")\n',
  );
  cockpit(["workspace", "add", dir]);
  const lines = cockpit(["agent-token", "create", "--workspace", dir]).trim().split("\n");
  token = lines[lines.length - 1]!.trim();
});

const unique = () => `${test.info().project.name}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Codex's PermissionRequest payload (hooks/schema/generated/permission-request.command.input.schema.json). */
function permissionRequest(command: string, description?: string) {
  return {
    session_id: crypto.randomUUID(),
    turn_id: "turn-1",
    transcript_path: null,
    cwd: dir,
    model: "gpt-5-codex",
    permission_mode: "default",
    hook_event_name: "PermissionRequest",
    tool_name: "Bash",
    tool_input: { command, ...(description ? { description } : {}) },
  };
}

/** The command handler `cockpit connect codex` installs, run as Codex runs it: payload on stdin, JSON on stdout. */
function codexHook(baseURL: string, payload: object): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ["bin/cockpit.mjs", "hook", "codex"], {
    env: { ...process.env, COCKPIT_URL: baseURL, COCKPIT_TOKEN: token, COCKPIT_DATA: dataDir(), HOME: home() },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stdin.end(JSON.stringify(payload));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout })));
}

type ApiCard = {
  id: string;
  agent: string;
  input: { command?: string };
  remember: { workspace: string[]; workspaceStore: string | null };
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

test.describe("Codex CLI", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test("connect installs the hooks in ~/.codex/hooks.json; disconnect removes exactly them", () => {
    const file = path.join(codexHome(), "hooks.json");
    fs.writeFileSync(
      file,
      '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\n  }\n}\n',
    );
    const before = fs.readFileSync(file, "utf8");
    const out = cockpit(["connect", "codex", "--workspace", dir, "--user"]);
    expect(out).toContain(file);
    const hooks = JSON.parse(fs.readFileSync(file, "utf8")).hooks;
    expect(Object.keys(hooks)).toEqual(["Stop", "PermissionRequest", "PreToolUse", "PostToolUse", "UserPromptSubmit"]);
    expect(hooks.PermissionRequest[0].hooks[0].command).toMatch(/ hook codex$/);
    cockpit(["disconnect", "codex", "--workspace", dir, "--user"]);
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  test("a Codex card shows the command as Codex does; Always allow writes Codex's own don't-ask-again line", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/cards");
    const marker = unique();
    const command = `cargo publish --dry-run --target-dir /tmp/${marker}`;
    const hook = codexHook(baseURL!, permissionRequest(command, "Check the crate packages"));
    const card = cardOnPage(page, marker);
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expect(card).toContainText(command);
    await expect(card.getByText("Codex CLI", { exact: true }).first()).toBeVisible();
    const api = await pendingCard(page, marker);
    const rule = `prefix_rule(pattern=["cargo", "publish", "--dry-run", "--target-dir", "/tmp/${marker}"], decision="allow")`;
    expect(api).toMatchObject({
      agent: "codex",
      remember: { workspace: [rule], workspaceStore: "~/.codex/rules/default.rules" },
    });
    await card.getByRole("button", { name: /Always allow/ }).click();
    const confirm = card.getByRole("group", { name: "Confirm always allow" });
    await expect(confirm.getByRole("list", { name: "Rules to write" })).toContainText(rule);
    await expect(confirm.getByTestId("store-file")).toHaveText("~/.codex/rules/default.rules");
    await expect(confirm.getByRole("button", { name: "Confirm always allow" })).toBeInViewport();
    await page.screenshot({
      path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/codex-card-${test.info().project.name}.png`,
    });
    await confirm.getByRole("button", { name: "Confirm always allow" }).click();
    await expect(page.getByTestId("answer-notice").first()).toContainText(/Always allowed: cargo publish .* · by you/);
    const result = await hook;
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    });
    const written = fs.readFileSync(path.join(codexHome(), "rules", "default.rules"), "utf8");
    expect(written.split("\n").filter((l) => l === rule)).toHaveLength(1);
  });

  test("a prompt rule's card names the rule, its file, line and matched prefix; Deny sends Codex the message", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/cards");
    const marker = unique();
    const hook = codexHook(baseURL!, permissionRequest(`git push origin ${marker}`));
    const card = cardOnPage(page, marker);
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expect(card).toContainText("team.rules:2");
    await expect(card).toContainText("prefix `git push`");
    // A prompt rule matched: Codex offers no "don't ask again", so neither does the card.
    await expect(card.getByRole("button", { name: /Always allow/ })).toHaveCount(0);
    await card.getByText("Deny with a message to the model").click();
    await card.getByLabel("Message to the model").fill("not on a Friday");
    await card.getByRole("button", { name: "Deny with message" }).click();
    await expect(page.getByTestId("answer-notice").first()).toContainText(
      /Denied with feedback: git push origin \S+ · by you/,
    );
    const result = await hook;
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "not on a Friday" },
      },
    });
  });

  test("the Rules page says first that Codex ignores every rule because of one file, line N (trusted projects only)", async ({
    page,
  }) => {
    const folder = fs.realpathSync(tempFolder("codex-broken"));
    fs.mkdirSync(path.join(folder, ".git"));
    const rules = path.join(folder, ".codex", "rules");
    fs.mkdirSync(rules, { recursive: true });
    fs.writeFileSync(path.join(rules, "guard.rules"), 'prefix_rule(pattern=["rm", "-rf"], decision="forbidden")\n');
    // A failing `match` example on line 3: Codex refuses its whole policy, the forbidden rule above included.
    const broken = path.join(rules, "mine.rules");
    fs.writeFileSync(
      broken,
      '# mine\nprefix_rule(pattern=["ls"])\nprefix_rule(pattern=["git"], decision="allow", match=["hg"])\n',
    );
    const res = await page.request.post("/api/v1/workspaces", {
      headers: { origin: appOrigin() },
      data: { path: folder },
    });
    expect(res.status()).toBe(201);
    const { workspace } = (await res.json()) as { workspace: { id: string } };
    await page.goto(`/rules?workspace=${workspace.id}`);

    // Not trusted yet: Codex reads none of the project's files, so the broken one voids nothing.
    await expect(page.getByTestId("list-status")).toContainText("entries");
    await expect(page.getByTestId("policy-banner").filter({ hasText: "Codex is ignoring" })).toHaveCount(0);

    // Trusted (Codex's own [projects."<path>"] trust_level): the broken file now voids every rule.
    fs.appendFileSync(path.join(codexHome(), "config.toml"), `\n[projects."${folder}"]\ntrust_level = "trusted"\n`);
    await page.getByRole("button", { name: "Refresh" }).click();
    const banner = page.getByTestId("policy-banner").filter({ hasText: "Codex is ignoring" });
    await expect(banner).toContainText(`Codex is ignoring all your rules because of ${broken}, line 3`);
    await expect(banner).toContainText("forbidden ones included");
    // It sits at the top of the page, above the hygiene summary and the filters (Refresh scrolled past it on a phone).
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(banner).toBeInViewport();
    await page.screenshot({ path: test.info().outputPath("codex-banner.png"), fullPage: false });
  });
});
