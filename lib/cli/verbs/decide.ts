import path from "node:path";
import { terminalJson } from "@/lib/text/reveal";
import { agentModule, storeAgentIds } from "@/lib/agents/registry";
import type { AgentEngine } from "@/lib/agents/types";
import type { SessionEntryRow } from "@/lib/stores/session";
import { callServer } from "../server-client";
import { cliFailure, storePathsFromFlags } from "../store-support";
import { parseFlags, CliError, UsageError, type Verb } from "../verb";

const usage = `Usage: cockpit decide --workspace DIR --agent ${storeAgentIds().join("|")} [--mode M] [--session ID] --call JSON [--explain]

  Decide one tool call with the workspace's and $HOME's stores, exactly as the agent would.
  Prints one JSON object: {"decision","step","rule","scope","store","reason"}.

  --call JSON      e.g. '{"tool":"Bash","input":{"command":"git status"}}'
  --mode M         the agent's mode (default: the stores' defaultMode, else default)
  --cwd DIR        the agent's working folder (default: the workspace)
  --session ID     agent session id: its session rules are read from the running cockpit
                   (without a server, only the files decide and a note goes to stderr)
  --explain        add the trace, cause and warnings`;

const FLAGS = {
  workspace: { type: "string" },
  agent: { type: "string" },
  mode: { type: "string" },
  session: { type: "string" },
  call: { type: "string" },
  cwd: { type: "string" },
  explain: { type: "boolean" },
} as const;

/**
 * Session rules live in the server's database: read them through its API when it runs;
 * without a server the decision uses the file stores only, and says so on stderr.
 */
async function sessionRowsFor(workspace: string, sessionId: string): Promise<SessionEntryRow[]> {
  try {
    const rows = await callServer<{ entries: SessionEntryRow[] }>(
      "GET",
      `/api/v1/session-entries?workspace=${encodeURIComponent(workspace)}&agentSessionId=${encodeURIComponent(sessionId)}`,
    );
    return rows.entries;
  } catch (error) {
    process.stderr.write(`cockpit decide: session rules not read (${(error as Error).message})\n`);
    return [];
  }
}

/** The `--agent` value before the flags are parsed: the agent's engine may add flags of its own. */
function agentFlag(argv: string[]): string | undefined {
  const at = argv.findIndex((a) => a === "--agent" || a.startsWith("--agent="));
  if (at < 0) return undefined;
  return argv[at]!.includes("=") ? argv[at]!.slice("--agent=".length) : argv[at + 1];
}

async function engineFor(agent: string | undefined): Promise<AgentEngine> {
  if (agent === undefined) throw new CliError(`--agent is required (${storeAgentIds().join(", ")})`, 2);
  try {
    return await agentModule(agent, "stores").engine();
  } catch (error) {
    throw new CliError((error as Error).message, 2);
  }
}

export const decideVerb: Verb = {
  name: "decide",
  summary: "decide a tool call with the stores' rules and explain why",
  usage,
  async run(argv) {
    const agent = agentFlag(argv);
    const engine = await engineFor(agent);
    const { values, positionals } = parseFlags(argv, { ...FLAGS, ...engine.flags }, true);
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (typeof values.call !== "string") throw new UsageError("--call JSON is required");
    let raw: unknown;
    try {
      raw = JSON.parse(values.call);
    } catch (error) {
      throw new CliError(`--call is not valid JSON: ${(error as Error).message}`, 2);
    }
    const call = engine.parseCall(raw);
    if (!call.ok) throw new CliError(`--call must be {"tool": "...", "input": {...}}: ${call.error}`, 2);
    const mode = values.mode as string | undefined;
    if (mode !== undefined && !engine.parseMode(mode).ok) throw new CliError(`unknown mode "${mode}" for ${agent}`, 2);
    const options = Object.fromEntries(
      Object.keys(engine.flags ?? {}).flatMap((k) => {
        const v = (values as Record<string, string | boolean | undefined>)[k];
        return v === undefined ? [] : [[k, v]];
      }),
    );
    try {
      const paths = storePathsFromFlags(values.workspace as string | undefined);
      const session = values.session as string | undefined;
      const cwd = typeof values.cwd === "string" ? path.resolve(values.cwd) : undefined;
      const sessionRows = session ? await sessionRowsFor(paths.workspace, session) : [];
      const snapshot = await engine.load({ paths, cwd, sessionRows, sessionId: session });
      const result = snapshot.decide({ call: call.value, mode, cwd, options });
      if (result.ignoredDefault)
        process.stderr.write(`cockpit decide: ignoring defaultMode ${result.ignoredDefault}\n`);
      const d = result.decision;
      const out: Record<string, unknown> = {
        decision: d.decision,
        step: d.step,
        rule: d.rule,
        scope: d.scope,
        store: d.store,
        reason: d.reason,
      };
      if (values.explain)
        Object.assign(
          out,
          { trace: d.trace, cause: d.cause, warnings: d.warnings, safetyCheck: d.safetyCheck },
          result.explain,
        );
      process.stdout.write(terminalJson(out) + "\n");
      return 0;
    } catch (error) {
      if (error instanceof CliError) throw error;
      const failure = cliFailure(error);
      if (!failure) throw error;
      if (failure.usage) throw new CliError(failure.message, 2);
      throw new CliError(failure.message);
    }
  },
};
