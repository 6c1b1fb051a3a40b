import { ValidationError } from "@/lib/errors";
import path from "node:path";
import { terminalJson } from "@/lib/text/reveal";
import { storeAgentIds } from "@/lib/agents/registry";
import type { SessionEntryRow } from "@/lib/stores/session";
import { callServer } from "../server-client";
import { decideLines } from "../decide-jsonl";
import { DecideCall, DecideInputError, Decider, engineFor, firstIssue } from "../decide-one";
import { storePathsFromFlags } from "../store-support";
import { parseFlags, type Verb } from "../verb";

const usage = `Usage: cockpit decide --workspace DIR --agent ${storeAgentIds().join("|")} [--mode M] [--session ID] --call JSON [--explain]
       cockpit decide --jsonl --workspace DIR [--agent A] [--mode M] [--explain]  < calls.jsonl

  Decide one tool call with the workspace's and $HOME's stores, exactly as the agent would.
  Prints one JSON object: {"decision","step","rule","scope","store","reason"}.

  --jsonl          read one {"agent","mode"?,"session"?,"cwd"?,"call"} per stdin line and print one
                   decision object per line, in order ({"error":"line N: …"} for a bad line; exit 1 if
                   any line failed). One process, stores read once and again only when a file changes.
                   --agent/--mode are the defaults for lines that do not name their own; a relative
                   "cwd" is relative to the workspace.

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
  jsonl: { type: "boolean" },
} as const;

/** The `--agent` value before the flags are parsed. */
function agentFlagOf(argv: string[]): string | undefined {
  const at = argv.findIndex((a) => a === "--agent" || a.startsWith("--agent="));
  if (at < 0) return undefined;
  return argv[at]!.includes("=") ? argv[at]!.slice("--agent=".length) : argv[at + 1];
}

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

export const decideVerb: Verb = {
  name: "decide",
  summary: "decide a tool call with the stores' rules and explain why",
  usage,
  oneLineErrors: true,
  async run(argv) {
    // The agent's engine may add flags of its own (`engine.flags`): find it before parsing the rest.
    const agentFlag = agentFlagOf(argv);
    const jsonl = argv.includes("--jsonl");
    if (agentFlag === undefined && !jsonl)
      throw new ValidationError(`--agent is required (${storeAgentIds().join(", ")})`);
    let engine;
    try {
      engine = agentFlag === undefined ? undefined : await engineFor(agentFlag);
    } catch (error) {
      throw new ValidationError((error as Error).message);
    }
    const extra = jsonl ? {} : (engine?.flags ?? {});
    const { values: parsed, positionals } = parseFlags(argv, { ...FLAGS, ...extra }, true);
    const values = parsed as {
      [K in keyof typeof FLAGS]?: (typeof FLAGS)[K]["type"] extends "boolean" ? boolean : string;
    };
    if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
    if (values.mode !== undefined && engine && !engine.parseMode(values.mode).ok)
      throw new ValidationError(`unknown mode "${values.mode}" for ${agentFlag}`);
    const options = Object.fromEntries(
      Object.keys(extra).flatMap((k) => {
        const v = (parsed as Record<string, string | boolean | undefined>)[k];
        return v === undefined ? [] : [[k, v]];
      }),
    );
    const paths = storePathsFromFlags(values.workspace);
    const decider = new Decider(paths, (id) => sessionRowsFor(paths.workspace, id));
    if (values.jsonl) {
      for (const flag of ["call", "session", "cwd"] as const)
        if (values[flag] !== undefined) throw new ValidationError(`--${flag} goes in each line with --jsonl`);
      process.stdin.setEncoding("utf8");
      const { failed } = await decideLines(process.stdin as AsyncIterable<string>, {
        decider,
        defaults: { agent: agentFlag, mode: values.mode },
        explain: Boolean(values.explain),
        write: (text) =>
          new Promise<void>((resolve, reject) =>
            process.stdout.write(text, (error) => (error ? reject(error) : resolve())),
          ),
        note: (text) => process.stderr.write(`cockpit decide: ${text}\n`),
      });
      return failed ? 1 : 0;
    }
    if (!values.call) throw new ValidationError("--call JSON is required");
    let raw: unknown;
    try {
      raw = JSON.parse(values.call);
    } catch (error) {
      throw new ValidationError(`--call is not valid JSON: ${(error as Error).message}`);
    }
    const call = DecideCall.safeParse(raw);
    if (!call.success)
      throw new ValidationError(`--call must be {"tool": "...", "input": {...}}: ${firstIssue(call.error, "call")}`);
    // Bad call input (DecideInputError) and store refusals are typed errors: lib/cli/exit-codes.ts maps them.
    const { out, ignoredDefault } = await decider.decide({
      agent: agentFlag!,
      call: call.data,
      options,
      mode: values.mode,
      session: values.session,
      cwd: values.cwd ? path.resolve(values.cwd) : undefined,
      explain: values.explain,
    });
    if (ignoredDefault) process.stderr.write(`cockpit decide: ignoring defaultMode ${ignoredDefault}\n`);
    process.stdout.write(terminalJson(out) + "\n");
    return 0;
  },
};
