/**
 * Cursor CLI in `cockpit demo`: its project permissions in the demo workspace and a scripted agent that asks as
 * Cursor's beforeShellExecution hook does, for commands its allow list does not settle. Plain data.
 */
import type { AgentDemo } from "../types";
import { info } from "./info";

export const demoFiles: Record<string, string> = {
  // Cursor reads every .cursor/cli.json from the git root down (plain JSON): deny beats allow, the rest asks.
  ".cursor/cli.json":
    JSON.stringify(
      {
        permissions: {
          allow: ["Shell(git)", "Shell(npm:test)", "Read(src/**)"],
          deny: ["Shell(rm)", "Read(.env*)"],
        },
      },
      null,
      2,
    ) + "\n",
};

/** The scripted agent's steps (a `cockpit simulate` script); the second is allowed only by an inferred reading. */
export function demoScript() {
  return {
    agent: info.id,
    sessionId: "demo-cursor-session",
    loop: true,
    pauseMs: 3500,
    steps: [
      { tool: "Shell", input: { command: "npm install left-pad" } },
      { tool: "Shell", input: { command: "git status && git log --oneline" } },
    ],
  };
}

export const demo: AgentDemo = { files: demoFiles, script: demoScript };
