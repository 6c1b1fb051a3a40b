import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { cockpit, signIn, tempFolder } from "./helpers";

test("decide --session reads the session rules from the running cockpit", async ({ page, baseURL }) => {
  await signIn(page);
  const folder = fs.realpathSync(tempFolder("decide"));
  fs.mkdirSync(path.join(folder, ".claude"));
  fs.writeFileSync(path.join(folder, ".claude", "settings.json"), '{ "permissions": { "deny": ["Bash(rm:*)"] } }\n');
  cockpit(["workspace", "add", folder]);
  const { workspaces } = (await (await page.request.get("/api/v1/workspaces")).json()) as {
    workspaces: { id: string; path: string }[];
  };
  const workspaceId = workspaces.find((w) => w.path === folder)!.id;
  const session = `s-${test.info().project.name}-${Date.now()}`;
  const added = await page.request.post("/api/v1/session-entries", {
    headers: { origin: baseURL! },
    data: {
      workspace: workspaceId,
      agentSessionId: session,
      agent: "claude-code",
      action: "allow",
      rule: "Bash(cargo build *)",
    },
  });
  expect(added.status()).toBe(201);
  const call = JSON.stringify({ tool: "Bash", input: { command: "cargo build --release" } });
  const withSession = JSON.parse(
    cockpit(["decide", "--workspace", folder, "--agent", "claude-code", "--session", session, "--call", call]),
  );
  expect(withSession).toMatchObject({
    decision: "allow",
    step: "allow-rule",
    rule: "Bash(cargo build *)",
    scope: "session",
  });
  const otherSession = JSON.parse(
    cockpit(["decide", "--workspace", folder, "--agent", "claude-code", "--session", "someone-else", "--call", call]),
  );
  expect(otherSession).toMatchObject({ decision: "ask", step: "fallback" });
  const denied = JSON.parse(
    cockpit([
      "decide",
      "--workspace",
      folder,
      "--agent",
      "claude-code",
      "--session",
      session,
      "--call",
      JSON.stringify({ tool: "Bash", input: { command: "rm -r target" } }),
    ]),
  );
  expect(denied).toMatchObject({ decision: "deny", step: "deny-rule", scope: "workspace" });
});
