import path from "node:path";
import { terminalJson } from "@/lib/text/reveal";
import { z } from "zod";
import { normalizeMode } from "@/lib/policy";
import type { SessionEntryRow } from "@/lib/stores/session";
import { callServer } from "../server-client";
import { decideWith, loadPolicy } from "@/lib/policy-runtime/snapshot";
import { cliFailure, parseAgentFlag, storePathsFromFlags } from "../store-support";
import { parseFlags, CliError, UsageError, type Verb } from "../verb";

const usage = `Usage: cockpit decide --workspace DIR --agent commandcode|claude-code|mevedel [--mode M] [--session ID] --call JSON [--explain]

  Decide one tool call with the workspace's and $HOME's stores, exactly as the agent would.
  Prints one JSON object: {"decision","step","rule","scope","store","reason"}.

  --call JSON      e.g. '{"tool":"Bash","input":{"command":"git status"}}'
  --mode M         the agent's mode (default: the stores' defaultMode, else default)
  --cwd DIR        the agent's working folder (default: the workspace)
  --session ID     agent session id: its session rules are read from the running cockpit
                   (without a server, only the files decide and a note goes to stderr)
  --explain        add the trace, cause and warnings`;

const Call = z.object({ tool: z.string().min(1), input: z.record(z.string(), z.unknown()).default({}) });

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
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        workspace: { type: "string" },
        agent: { type: "string" },
        mode: { type: "string" },
        session: { type: "string" },
        call: { type: "string" },
        cwd: { type: "string" },
        explain: { type: "boolean" },
      },
      true,
    );
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    let agentFlag;
    try {
      agentFlag = parseAgentFlag(values.agent, true)!;
    } catch (error) {
      throw new CliError((error as Error).message, 2);
    }
    if (!values.call) throw new UsageError("--call JSON is required");
    let raw: unknown;
    try {
      raw = JSON.parse(values.call);
    } catch (error) {
      throw new CliError(`--call is not valid JSON: ${(error as Error).message}`, 2);
    }
    const call = Call.safeParse(raw);
    if (!call.success)
      throw new CliError(
        `--call must be {"tool": "...", "input": {...}}: ${call.error.issues[0].path.join(".") || "call"} ${call.error.issues[0].message}`,
        2,
      );
    try {
      const agent = agentFlag;
      if (values.mode !== undefined && !normalizeMode(agent, values.mode).ok)
        throw new CliError(`unknown mode "${values.mode}" for ${agent}`, 2);
      const paths = storePathsFromFlags(values.workspace);
      const sessionRows = values.session ? await sessionRowsFor(paths.workspace, values.session) : [];
      const snapshot = await loadPolicy({ paths, agent, sessionRows, sessionId: values.session });
      const {
        decision: d,
        ctx,
        ignoredDefault,
      } = decideWith(snapshot, {
        call: call.data,
        mode: values.mode,
        cwd: values.cwd ? path.resolve(values.cwd) : undefined,
      });
      if (ignoredDefault) process.stderr.write(`cockpit decide: ignoring defaultMode ${ignoredDefault}\n`);
      const out: Record<string, unknown> = {
        decision: d.decision,
        step: d.step,
        rule: d.rule,
        scope: d.scope,
        store: d.store,
        reason: d.reason,
      };
      if (values.explain)
        Object.assign(out, {
          trace: d.trace,
          cause: d.cause,
          warnings: d.warnings,
          safetyCheck: d.safetyCheck,
          mode: ctx.mode,
        });
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
