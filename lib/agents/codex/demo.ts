/**
 * Codex CLI in `cockpit demo`: its rules in the demo workspace and a scripted agent that asks as Codex's
 * PermissionRequest hook does (the command as Codex shows it; Codex asked). Plain data.
 */
import type { AgentDemo } from "../types";
import { info } from "./info";

export const demoFiles: Record<string, string> = {
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
};

/** The scripted agent's steps (a `cockpit simulate` script). */
export function demoScript() {
  return {
    agent: info.id,
    sessionId: "demo-codex-session",
    agentAsked: true,
    loop: true,
    pauseMs: 2500,
    steps: [
      { tool: "Bash", input: { command: "cargo publish --dry-run", description: "Check the crate packages" } },
      { tool: "Bash", input: { command: "npm test && git push origin main", description: "Test, then publish" } },
      { tool: "Bash", input: { command: "rm -rf target && cargo build --release" } },
    ],
  };
}

export const demo: AgentDemo = { files: demoFiles, script: demoScript };
