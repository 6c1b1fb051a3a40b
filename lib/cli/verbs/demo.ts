import { ValidationError } from "@/lib/errors";
import fs from "node:fs";
import { terminalJson } from "@/lib/text/reveal";
import path from "node:path";
import { callServer } from "../server-client";
import { parseFlags, type Verb } from "../verb";
import { hookUrl } from "./connect-support";
import { AGENT_LIST, DEMO_AGENT } from "@/lib/agents";
import { agentDemos } from "@/lib/agents/registry";
import { runSimulation, SimulatorScript } from "./simulate";

// A name is never split across lines (no-break spaces until the paragraph is wrapped).
const storeLabels = AGENT_LIST.filter((a) => a.hasStores).map((a) => a.label.replaceAll(" ", "\u00a0"));

const usage = `Usage: cockpit demo [--folder DIR] [--once]

${wrap(
  `Prepares a sample workspace (default ./demo-workspace) with permission stores for ${storeLabels.slice(0, -1).join(", ")} and ${storeLabels.at(-1)}, registers it with the running cockpit, creates an agent token and runs simulated agents that keep asking: one speaks Claude Code (npm install, git push, editing .env, rm -rf dist, a long multi-line command, an MCP tool), one asks as Codex's PermissionRequest hook does (cargo publish, git push, a bash script), one as Gemini's BeforeTool hook does (docker compose, a file write), one as Cursor's beforeShellExecution hook does (npm install, a compound command). Answer the cards at /cards. Stop with Ctrl-C.`,
)}

  --once   play the script once instead of looping`;

/** A paragraph of help text, indented two spaces, in lines of at most 105 characters. */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = " ";
  for (const word of text.split(" ")) {
    if (line.length + 1 + word.length > 105) {
      lines.push(line);
      line = " ";
    }
    line += ` ${word}`;
  }
  return [...lines, line].join("\n").replaceAll("\u00a0", " ");
}

/** The workspace's own files (what the agents' rules are about); each agent adds its stores (`AgentDemo.files`). */
const FILES: Record<string, string> = {
  "src/index.js": 'console.log("hello from the demo workspace");\n',
  "package.json":
    JSON.stringify({ name: "demo-workspace", private: true, scripts: { test: "node src/index.js" } }, null, 2) + "\n",
  ".env": "API_KEY=not-a-real-secret\n",
};

export const demoVerb: Verb = {
  name: "demo",
  summary: "sample workspace + a simulated agent that keeps asking (try the Cards page)",
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, { folder: { type: "string" }, once: { type: "boolean" } }, true);
    if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
    const folder = path.resolve(values.folder ?? "demo-workspace");
    const demos = await agentDemos();
    const files: Record<string, string> = Object.assign({}, ...demos.map((d) => d.demo.files), FILES);
    for (const [rel, text] of Object.entries(files)) {
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
      name: `demo ${DEMO_AGENT.id}`,
    });
    const base = hookUrl(undefined);
    process.stdout.write(
      `Demo workspace: ${real}\nOpen ${base}/cards and answer the cards; each outcome is printed below. Ctrl-C stops.\n`,
    );
    const stop = new AbortController();
    process.once("SIGINT", () => stop.abort());
    const scripts = demos.flatMap(({ demo }) => (demo.script ? [SimulatorScript.parse(demo.script(real))] : []));
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
