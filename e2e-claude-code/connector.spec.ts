import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { cockpit, signIn } from "../e2e/helpers";
import { ensureClaudeCode } from "../test/support/claude-code/install";
import {
  chownScratch,
  ensureOracleUser,
  makeScratch,
  runClaude,
  type OracleUser,
  type RunOutcome,
  type Scratch,
} from "../test/support/claude-code/run";

// The real Claude Code (`claude -p`, offline against a scripted Messages API) asks the cockpit through the hooks
// `cockpit connect claude-code` installs; a person answers in the browser. Tests tagged @browser also run on the
// phone; the others have no page to look at.

let bin: string;
let user: OracleUser | null;
const scratches: Scratch[] = [];

test.beforeAll(() => {
  ({ bin } = ensureClaudeCode());
  user = ensureOracleUser();
});
test.afterAll(() => {
  for (const s of scratches) s.cleanup();
});

const unique = () => `${test.info().project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A port nothing listens on: the cockpit "down". */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A scratch workspace registered in the cockpit, with an agent token and the cockpit's hooks as `connect`
 * writes them; trusted in Claude Code's `~/.claude.json`, handed to the unprivileged user.
 */
function connectedWorkspace(o: { http: boolean; url: string }): { s: Scratch; token: string } {
  const s = makeScratch(user);
  scratches.push(s);
  fs.writeFileSync(
    path.join(s.home, ".claude.json"),
    JSON.stringify({ hasCompletedOnboarding: true, projects: { [s.workspace]: { hasTrustDialogAccepted: true } } }),
  );
  cockpit(["workspace", "add", s.workspace]);
  const token = cockpit(["agent-token", "create", "--workspace", s.workspace]).trim().split("\n").at(-1)!.trim();
  cockpit(["connect", "claude-code", "--workspace", s.workspace, "--url", o.url, ...(o.http ? ["--http"] : [])]);
  chownScratch(s, user);
  return { s, token };
}

function claude(s: Scratch, token: string, commands: string[], env: Record<string, string> = {}): Promise<RunOutcome> {
  return runClaude({
    bin,
    user,
    scratch: s,
    calls: commands.map((command) => ({ name: "Bash", input: { command, description: "oracle e2e" } })),
    env: { COCKPIT_TOKEN: token, ...env },
    timeoutMs: 280_000,
  });
}

const cardOnPage = (page: Page, marker: string) => page.getByTestId("card").filter({ hasText: marker });
const denials = (run: RunOutcome) => (run.result?.permission_denials ?? []).map((d) => String(d.tool_input.command));

for (const http of [false, true]) {
  const kind = http ? "HTTP hook" : "command hook";

  test(`${kind}: the real Claude Code asks, a person allows one call and denies the next with a message @browser`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(300_000);
    await signIn(page);
    await page.goto("/cards");
    const { s, token } = connectedWorkspace({ http, url: baseURL! });
    const marker = unique();
    const run = claude(s, token, [`touch allowed-${marker}.txt`, `touch denied-${marker}.txt`]);

    const first = cardOnPage(page, `allowed-${marker}`);
    await expect(first).toBeVisible({ timeout: 180_000 });
    // Claude Code's own payload: its working folder and mode.
    await expect(first).toContainText(s.workspace);
    await first.getByRole("button", { name: "Allow once" }).click();
    await expect(page.getByTestId("answer-notice").first()).toContainText("Allowed once · by you");

    const second = cardOnPage(page, `denied-${marker}`);
    await expect(second).toBeVisible({ timeout: 120_000 });
    await second.getByText("Deny with a message to the model").click();
    const message = `Not in this folder (${marker}).`;
    await second.getByLabel("Message to the model").fill(message);
    await second.getByRole("button", { name: "Deny with message" }).click();
    await expect(page.getByTestId("answer-notice").first()).toContainText("Denied with feedback · by you");

    const done = await run;
    expect(done.result, done.stderr).toBeTruthy();
    // Claude Code ran the allowed command and refused the denied one, telling the model why.
    expect(fs.existsSync(path.join(s.workspace, `allowed-${marker}.txt`))).toBe(true);
    expect(fs.existsSync(path.join(s.workspace, `denied-${marker}.txt`))).toBe(false);
    expect(done.toolResults[0]).toMatchObject({ isError: false });
    expect(done.toolResults[1]).toMatchObject({ isError: true });
    expect(done.toolResults[1]!.content).toContain(message);
    expect(denials(done)).toEqual([`touch denied-${marker}.txt`]);
  });
}

test("command hook: nobody answers in time; the card is retired and Claude Code's own flow refuses (-p)", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(300_000);
  await signIn(page);
  await page.goto("/cards");
  const { s, token } = connectedWorkspace({ http: false, url: baseURL! });
  const marker = unique();
  const run = claude(s, token, [`touch late-${marker}.txt`], { COCKPIT_HOOK_WAIT: "5" });
  const card = cardOnPage(page, `late-${marker}`);
  await expect(card).toBeVisible({ timeout: 180_000 });
  // The hook gives up after COCKPIT_HOOK_WAIT: the card leaves the queue without anyone answering.
  await expect(card).toHaveCount(0, { timeout: 60_000 });
  const done = await run;
  expect(denials(done)).toEqual([`touch late-${marker}.txt`]);
  expect(fs.existsSync(path.join(s.workspace, `late-${marker}.txt`))).toBe(false);
});

test("HTTP hook: Claude Code's own hook timeout ends the held request; the card is retired", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(300_000);
  await signIn(page);
  await page.goto("/cards");
  const { s, token } = connectedWorkspace({ http: true, url: baseURL! });
  // As a person would shorten it: Claude Code stops waiting for the hook after 8 s.
  const file = path.join(s.workspace, ".claude/settings.local.json");
  fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"timeout": 600', '"timeout": 8'));
  const marker = unique();
  const run = claude(s, token, [`touch slow-${marker}.txt`]);
  const card = cardOnPage(page, `slow-${marker}`);
  await expect(card).toBeVisible({ timeout: 180_000 });
  await expect(card).toHaveCount(0, { timeout: 60_000 });
  const done = await run;
  expect(denials(done)).toEqual([`touch slow-${marker}.txt`]);
});

for (const http of [false, true]) {
  test(`${http ? "HTTP" : "command"} hook with the cockpit down: Claude Code's own flow decides (-p refuses)`, async () => {
    test.setTimeout(300_000);
    const { s, token } = connectedWorkspace({ http, url: `http://127.0.0.1:${await deadPort()}` });
    const marker = unique();
    const done = await claude(s, token, [`touch down-${marker}.txt`, `echo read-only-${marker}`]);
    expect(done.result, done.stderr).toBeTruthy();
    // The ask falls back to Claude Code (no prompt in -p: refused); what it allows itself still runs.
    expect(denials(done)).toEqual([`touch down-${marker}.txt`]);
    expect(done.toolResults[1]).toMatchObject({ isError: false, content: `read-only-${marker}` });
    expect(fs.existsSync(path.join(s.workspace, `down-${marker}.txt`))).toBe(false);
  });
}
