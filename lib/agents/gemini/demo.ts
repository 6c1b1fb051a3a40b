/**
 * Gemini CLI in `cockpit demo`: its files in the demo workspace (listed on the Rules page) and a scripted agent that
 * asks as Gemini's BeforeTool hook does, for calls Gemini's own policy prompts for. Plain data.
 */
import type { AgentDemo } from "../types";
import { info } from "./info";

export const demoFiles: Record<string, string> = {
  // Gemini CLI 0.61.0 lists but never loads a workspace's policies: the Rules page shows this file "not loaded".
  ".gemini/policies/team.toml": `# Gemini CLI policy for the demo ([[rule]] tables; priority = tier + priority/1000)
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["npm test", "git status"]
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push"
decision = "ask_user"
priority = 200
`,
  // Read only in a trusted folder: tools.exclude denies web_fetch, tools.allowed narrows the shell tool.
  ".gemini/settings.json":
    JSON.stringify({ tools: { allowed: ["run_shell_command(npm run lint)"], exclude: ["web_fetch"] } }, null, 2) + "\n",
};

/** The scripted agent's steps (a `cockpit simulate` script). */
export function demoScript(folder: string) {
  return {
    agent: info.id,
    sessionId: "demo-gemini-session",
    loop: true,
    pauseMs: 3000,
    steps: [
      {
        tool: "run_shell_command",
        input: { command: "docker compose up -d", description: "Start the services" },
      },
      {
        tool: "write_file",
        input: { file_path: `${folder}/src/config.js`, content: "export const debug = true;\n" },
      },
    ],
  };
}

export const demo: AgentDemo = { files: demoFiles, script: demoScript };
