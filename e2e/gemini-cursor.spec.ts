import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { appOrigin, cockpit, dataDir, signIn, tempFolder } from "./helpers";

// Gemini CLI and Cursor CLI cards answered in the browser (desktop and phone), through the real `cockpit hook`
// command each agent runs, with each agent's own hook payload shapes.

let dir: string;
let token: string;

test.beforeAll(() => {
  dir = tempFolder("gc-ws");
  fs.mkdirSync(path.join(dir, ".git"));
  fs.mkdirSync(path.join(dir, ".cursor"));
  fs.writeFileSync(
    path.join(dir, ".cursor", "cli.json"),
    JSON.stringify({ permissions: { allow: ["Shell(git)"], deny: ["Shell(rm)"] } }, null, 2) + "\n",
  );
  cockpit(["workspace", "add", dir]);
  const lines = cockpit(["agent-token", "create", "--workspace", dir]).trim().split("\n");
  token = lines[lines.length - 1]!.trim();
});

const unique = () => `${test.info().project.name}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** `cockpit hook <agent>` as the agent runs it: payload on stdin, the agent's JSON on stdout. */
function hook(agent: "gemini" | "cursor", baseURL: string, payload: object, wait = 60) {
  const child = spawn(process.execPath, ["bin/cockpit.mjs", "hook", agent], {
    env: {
      ...process.env,
      COCKPIT_URL: baseURL,
      COCKPIT_TOKEN: token,
      COCKPIT_HOOK_WAIT: String(wait),
      COCKPIT_DATA: dataDir(),
      HOME: path.join(dataDir(), "home"),
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stdin.end(JSON.stringify(payload));
  return new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout })),
  );
}

/** Cursor's beforeShellExecution payload (cursor.com/docs/hooks, "Common schema"). */
const cursorShell = (command: string) => ({
  conversation_id: crypto.randomUUID(),
  generation_id: crypto.randomUUID(),
  model: "gpt-5",
  cursor_version: "1.7.2",
  user_email: null,
  hook_event_name: "beforeShellExecution",
  command,
  cwd: dir,
  workspace_roots: [dir],
});

/** Gemini's BeforeTool payload (docs/hooks/reference.md, hooks/hookEventHandler.ts). */
const geminiBeforeTool = (command: string) => ({
  session_id: crypto.randomUUID(),
  transcript_path: "/home/u/.gemini/tmp/abc/chats/session.json",
  cwd: dir,
  hook_event_name: "BeforeTool",
  timestamp: new Date().toISOString(),
  tool_name: "run_shell_command",
  tool_input: { command, description: "build the image" },
});

test.describe("Gemini CLI and Cursor CLI cards", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test("Cursor: what its allow list settles is answered at once; an ask becomes a card and Allow once is Cursor's allow", async ({
    page,
    baseURL,
  }) => {
    const local = await hook("cursor", baseURL!, cursorShell("git status"));
    expect(JSON.parse(local.stdout)).toEqual({ permission: "allow" });
    const denied = await hook("cursor", baseURL!, cursorShell("rm -rf build"));
    expect(JSON.parse(denied.stdout)).toMatchObject({ permission: "deny" });

    await page.goto("/cards");
    const marker = unique();
    const pending = hook("cursor", baseURL!, cursorShell(`npm install left-pad-${marker}`));
    const card = page.getByTestId("card").filter({ hasText: marker });
    await expect(card).toBeVisible({ timeout: 30_000 });
    await expect(card.getByText("Cursor CLI", { exact: true }).first()).toBeVisible();
    // Cursor's hook answers "allow" and Cursor runs the command: the card offers Allow and Deny.
    await expect(card.getByRole("button", { name: "Deny", exact: true })).toBeVisible();
    await expect(card.getByRole("button", { name: "Allow once", exact: true })).toBeVisible();
    await expect(card.getByTestId("approve-elsewhere")).toHaveCount(0);
    await page.screenshot({
      path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/cursor-card-${test.info().project.name}.png`,
    });
    await card.getByRole("button", { name: "Allow once" }).click();
    await expect(page.getByTestId("answer-notice").first()).toContainText(
      /Allowed once: npm install left-pad-.* · by you/,
    );
    const result = await pending;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ permission: "allow" });
  });

  test("Cursor: nobody answers in time, so the hook answers ask (never allow)", async ({ baseURL }) => {
    const result = await hook("cursor", baseURL!, cursorShell(`npm publish ${unique()}`), 2);
    expect(JSON.parse(result.stdout)).toMatchObject({ permission: "ask" });
  });

  test("Gemini: the card says approval is in Gemini's terminal; Deny from the page blocks the call", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/cards");
    const marker = unique();
    const pending = hook("gemini", baseURL!, geminiBeforeTool(`docker build -t app:${marker} .`));
    const card = page.getByTestId("card").filter({ hasText: marker });
    await expect(card).toBeVisible({ timeout: 30_000 });
    await expect(card.getByText("Gemini CLI", { exact: true }).first()).toBeVisible();
    // Gemini ignores a hook's "allow": Deny is the only answer, and one line says where approving happens.
    await expect(card.getByTestId("approve-elsewhere")).toHaveText(
      "Gemini CLI cannot be approved from here (its hooks can only deny): deny here, or approve in Gemini's terminal, where its prompt appears once this card closes (the hook waits 60 s by default).",
    );
    await expect(card.getByRole("button", { name: "Deny", exact: true })).toBeVisible();
    await expect(card.getByRole("button", { name: /allow/i })).toHaveCount(0);
    await expect(card.getByText(/Always allow|Allow for this session|Allow once/)).toHaveCount(0);
    await page.screenshot({
      path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/gemini-card-${test.info().project.name}.png`,
    });
    await card.getByRole("button", { name: "Deny", exact: true }).click();
    await expect(page.getByTestId("answer-notice").first()).toContainText(/Denied/);
    const result = await pending;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      decision: "deny",
      reason: expect.stringMatching(/^Denied from Permissions Cockpit/),
    });
  });

  test("Gemini: nobody denies in time, so the card closes and the hook prints nothing (Gemini's own prompt decides)", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/cards");
    const marker = unique();
    const pending = hook("gemini", baseURL!, geminiBeforeTool(`docker push app:${marker}`), 8);
    const card = page.getByTestId("card").filter({ hasText: marker });
    await expect(card).toBeVisible({ timeout: 30_000 });
    const result = await pending;
    expect(result).toEqual({ code: 0, stdout: "" });
    // The card is retired (aborted): nothing is left to answer on it.
    await expect(card.getByRole("button", { name: "Deny", exact: true })).toHaveCount(0);
  });

  test("Gemini: the Rules page says, next to auto-saved.toml, that Gemini drops its comments; a rule there narrows in place", async ({
    page,
  }) => {
    const policies = path.join(dataDir(), "home", ".gemini", "policies");
    fs.mkdirSync(policies, { recursive: true });
    const file = path.join(policies, "auto-saved.toml");
    fs.writeFileSync(
      file,
      '# kept by the cockpit, dropped by Gemini\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "npm test"\ndecision = "allow"\npriority = 950\n',
    );
    try {
      const folder = tempFolder("gc-rules");
      fs.mkdirSync(path.join(folder, ".git"));
      await page.goto("/rules");
      const res = await page.request.post("/api/v1/workspaces", {
        headers: { origin: appOrigin() },
        data: { path: folder },
      });
      expect(res.status()).toBe(201);
      const { workspace } = (await res.json()) as { workspace: { id: string } };
      await page.goto(`/rules?workspace=${workspace.id}`);
      const store = page.locator(`[data-testid="store"][data-store-path="${file}"]`);
      await expect(store.getByTestId("store-help")).toHaveText(
        "Gemini rewrites this file whenever you choose “Allow for all future sessions”: it re-serializes it with @iarna/toml, so comments and formatting here are lost the next time Gemini saves. The cockpit's own edits keep them.",
      );
      await expect(store).toContainText("npm test");
      await store.getByTestId("store-help").scrollIntoViewIfNeeded();
      await page.screenshot({
        path: `${process.env.E2E_SCREENSHOTS ?? "test-results"}/gemini-auto-saved-${test.info().project.name}.png`,
      });

      // Narrowed on the page through Gemini's own proof: a commandPrefix grows by whole words only.
      const rule = (prefix: string) =>
        `toolName = "run_shell_command", commandPrefix = "${prefix}", decision = "allow", priority = 950`;
      await store
        .getByTestId("entry")
        .filter({ has: page.getByText(rule("npm test"), { exact: true }) })
        .getByRole("button", { name: /Narrow/ })
        .click();
      const dialog = page.getByRole("dialog");
      const input = dialog.getByLabel("Narrower entry", { exact: true });
      await input.fill(rule("npm tes"));
      await expect(dialog.getByTestId("narrow-check")).toContainText("cannot prove narrower: commandPrefix changes");
      await expect(dialog.getByRole("button", { name: "Save" })).toBeDisabled();
      await input.fill(rule("npm test --ci"));
      await expect(dialog.getByTestId("narrow-check")).toHaveText("narrower");
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Narrowed in" })).toBeVisible();
      expect(fs.readFileSync(file, "utf8")).toBe(
        '# kept by the cockpit, dropped by Gemini\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "npm test --ci"\ndecision = "allow"\npriority = 950\n',
      );
    } finally {
      // Other specs share this HOME: a Gemini file of the person's would add Gemini's trust banner to their pages.
      fs.rmSync(file);
    }
  });
});
