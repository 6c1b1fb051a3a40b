/**
 * Claude Code in `cockpit demo`: its settings in the demo workspace and a scripted agent that speaks its dialect (npm
 * install, git push, editing .env, rm -rf dist, a long multi-line command, an MCP tool). Plain data.
 */
import path from "node:path";
import type { AgentDemo } from "../types";
import { info } from "./info";

export const demoFiles: Record<string, string> = {
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
};

/** The scripted agent's steps (a `cockpit simulate` script). */
export function demoScript(folder: string) {
  return {
    agent: info.id,
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
  };
}

export const demo: AgentDemo = { files: demoFiles, script: demoScript };
