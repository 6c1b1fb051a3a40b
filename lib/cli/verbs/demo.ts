import { ValidationError } from "@/lib/errors";
import fs from "node:fs";
import { terminalJson } from "@/lib/text/reveal";
import path from "node:path";
import { callServer } from "../server-client";
import { parseFlags, type Verb } from "../verb";
import { hookUrl } from "./connect-support";
import { demoFiles as cursorFiles, demoScript as cursorScript } from "@/lib/agents/cursor/demo";
import { demoFiles as geminiFiles, demoScript as geminiScript } from "@/lib/agents/gemini/demo";
import { runSimulation, SimulatorScript } from "./simulate";

const usage = `Usage: cockpit demo [--folder DIR] [--once]

  Prepares a sample workspace (default ./demo-workspace) with permission stores for Claude Code,
  Command Code, mevedel, Codex CLI, Gemini CLI and Cursor CLI, registers it with the running cockpit,
  creates an agent token and runs simulated agents that keep asking: one speaks Claude Code (npm install,
  git push, editing .env, rm -rf dist, a long multi-line command, an MCP tool), one asks as Codex's
  PermissionRequest hook does (cargo publish, git push, a bash script), one as Gemini's BeforeTool hook
  does (docker compose, a file write), one as Cursor's beforeShellExecution hook does (npm install, a
  compound command). Answer the cards at /cards. Stop with Ctrl-C.

  --once   play the script once instead of looping`;

const FILES: Record<string, string> = {
  ".claude/settings.json":
    JSON.stringify(
      {
        permissions: {
          allow: ["Bash(npm run lint)", "Bash(git diff:*)", "Bash(git log:*)"],
          ask: ["Bash(git push:*)"],
          deny: ["Bash(curl:*)", "Read(./secrets/**)"],
        },
      },
      null,
      2,
    ) + "\n",
  ".commandcode/settings.json": `// Command Code permissions for the demo
{
  "permissions": {
    "allow": ["Shell(git status:*)", "Edit(src/**)"],
    "ask": ["Shell(git push:*)"],
    "deny": ["Shell(rm -rf /*)"],
    "defaultMode": "default"
  }
}
`,
  ".mevedel/permissions.el": `;; -*- mode: emacs-lisp -*-
;; mevedel permissions for the demo
(:rules
 (("Bash" :pattern "git log*" :action allow)
  ("Bash" :pattern "npm test*"
   :network nil
   :file-system ((:path "~/.npm" :access write :recursive t))
   :action allow)
  ("Bash" :pattern "rm -rf /*" :action deny))
 :resource-grants
 ((:path "~/notes" :access read)))
`,
  ".codex/rules/default.rules": `# Codex CLI rules for the demo (Starlark: prefix_rule, host_executable, network_rule).
# Codex reads a project's .codex/ only when the project is trusted in ~/.codex/config.toml.

# Pushing talks to the remote: always ask.
prefix_rule(
    pattern = ["git", ["push", "fetch"]],
    decision = "prompt",
    justification = "talks to the remote",
    match = ["git push origin main"],
    not_match = ["git status"],
)

prefix_rule(pattern=["npm", ["test", "run"]], decision="allow")
prefix_rule(pattern=["rm", "-rf"], decision="forbidden", justification="use git clean")
`,
  "src/index.js": 'console.log("hello from the demo workspace");\n',
  "package.json":
    JSON.stringify({ name: "demo-workspace", private: true, scripts: { test: "node src/index.js" } }, null, 2) + "\n",
  ".env": "API_KEY=not-a-real-secret\n",
  ...geminiFiles,
  ...cursorFiles,
};

function demoScript(folder: string) {
  return SimulatorScript.parse({
    agent: "claude-code",
    sessionId: "demo-session",
    mode: "default",
    loop: true,
    pauseMs: 1500,
    steps: [
      {
        tool: "Bash",
        input: { command: "npm install", description: "Install dependencies" },
        reason: "The project has no node_modules yet.",
      },
      {
        tool: "Bash",
        input: { command: "git push origin main", description: "Publish the fix" },
        originPath: "/root/worker",
      },
      {
        tool: "Edit",
        input: {
          file_path: path.join(folder, ".env"),
          old_string: "API_KEY=not-a-real-secret",
          new_string: "API_KEY=rotated",
        },
        reason: "Rotate the API key.",
      },
      {
        tool: "Bash",
        input: { command: "rm -rf dist", description: "Clean the build output" },
        originPath: "/root/worker/verifier",
      },
      {
        tool: "Bash",
        input: {
          command: `for f in src/*.js; do\n  echo "checking $f"\n  node --check "$f" || exit 1\ndone\nnpm run build && npm test -- --coverage --reporter=verbose ${"--grep 'permissions' ".repeat(6)}`,
          description: "Check, build and test",
        },
      },
      {
        tool: "mcp__github__create_issue",
        input: { owner: "acme", repo: "demo", title: "Flaky test in CI", body: "Seen three times this week." },
      },
    ],
  });
}

/** The Codex side: cards as Codex's PermissionRequest hook sends them (the command as Codex shows it; Codex asked). */
function codexScript() {
  return SimulatorScript.parse({
    agent: "codex",
    sessionId: "demo-codex-session",
    agentAsked: true,
    loop: true,
    pauseMs: 2500,
    steps: [
      { tool: "Bash", input: { command: "cargo publish --dry-run", description: "Check the crate packages" } },
      { tool: "Bash", input: { command: "npm test && git push origin main", description: "Test, then publish" } },
      { tool: "Bash", input: { command: "rm -rf target && cargo build --release" } },
    ],
  });
}

export const demoVerb: Verb = {
  name: "demo",
  summary: "sample workspace + a simulated agent that keeps asking (try the Cards page)",
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { folder: { type: "string" }, once: { type: "boolean" } }, true);
    if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
    const folder = path.resolve(values.folder ?? "demo-workspace");
    for (const [rel, text] of Object.entries(FILES)) {
      const file = path.join(folder, rel);
      if (fs.existsSync(file)) continue; // keep edits made during an earlier demo
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    }
    const real = fs.realpathSync(folder);
    const { workspaces } = await callServer<{ workspaces: { id: string; path: string }[] }>(
      "GET",
      "/api/v1/workspaces",
    );
    if (!workspaces.some((w) => w.path === real))
      await callServer("POST", "/api/v1/workspaces", { path: real, name: "demo-workspace" });
    const { token } = await callServer<{ token: string }>("POST", "/api/v1/agent-tokens", {
      workspace: real,
      name: "demo simulator",
    });
    const base = hookUrl(undefined);
    process.stdout.write(
      `Demo workspace: ${real}\nOpen ${base}/cards and answer the cards; each outcome is printed below. Ctrl-C stops.\n`,
    );
    const stop = new AbortController();
    process.once("SIGINT", () => stop.abort());
    const scripts = [
      demoScript(real),
      codexScript(),
      SimulatorScript.parse(geminiScript(real)),
      SimulatorScript.parse(cursorScript()),
    ];
    await Promise.all(
      scripts.map((s) =>
        runSimulation({
          base,
          token,
          workspace: real,
          script: { ...s, loop: !values.once },
          signal: stop.signal,
          onLine: (line) => process.stdout.write(terminalJson({ agent: s.agent, ...line }) + "\n"),
        }),
      ),
    );
    return 0;
  },
};
