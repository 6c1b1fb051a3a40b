import { ValidationError } from "@/lib/errors";
import path from "node:path";
import { z } from "zod";
import { agentModule } from "@/lib/agents/registry";
import type { AgentEngine, AgentSnapshot } from "@/lib/agents/types";
import type { StorePaths } from "@/lib/stores/discover";
import type { SessionEntryRow } from "@/lib/stores/session";

/** One tool call as `decide` takes it: the agent's tool name and its input. */
export const DecideCall = z.object({ tool: z.string().min(1), input: z.record(z.string(), z.unknown()).default({}) });
export type DecideCall = z.infer<typeof DecideCall>;

/** The first problem of a failed parse as one line: `call.tool expected string`. */
export function firstIssue(error: z.ZodError, root?: string): string {
  const issue = error.issues[0]!;
  const where = issue.path.length ? issue.path.join(".") : root;
  return where ? `${where} ${issue.message}` : issue.message;
}

export interface DecideOneInput {
  agent: string;
  call: DecideCall;
  mode?: string;
  session?: string;
  /** The agent's working folder: absolute, or relative to the workspace. */
  cwd?: string;
  explain?: boolean;
  /** The agent's own `decide` flags (`engine.flags`). */
  options?: Readonly<Record<string, string | boolean>>;
}

/** The engine of an agent that has stores (the ones `decide` knows); an unknown agent is bad input. */
export async function engineFor(agent: string): Promise<AgentEngine> {
  try {
    return await agentModule(agent, "stores").engine();
  } catch (error) {
    throw new DecideInputError((error as Error).message);
  }
}

/** Bad input for one call (unknown mode…): the CLI's usage error, one `{"error"}` line in `--jsonl`. */
export class DecideInputError extends ValidationError {}

/**
 * Decides calls for one workspace, keeping one policy snapshot per agent and session. `checkStores()` makes
 * the next call of each agent ask the store cache again (a stat per file): unchanged files keep their parse
 * and the engine its compiled rule index; a changed file is read again. Session rows are fetched once per session.
 */
export class Decider {
  private readonly sessions = new Map<string, Promise<SessionEntryRow[]>>();
  private snapshots = new Map<string, Promise<AgentSnapshot>>();

  constructor(
    readonly paths: StorePaths,
    private readonly sessionRowsFor: (sessionId: string) => Promise<SessionEntryRow[]>,
  ) {}

  /** Look at the files' versions again before the next decision (`--jsonl`: once per batch of lines read). */
  checkStores(): void {
    this.snapshots = new Map();
  }

  private snapshot(engine: AgentEngine, agent: string, session: string | undefined, cwd: string | undefined) {
    const key = `${agent}\0${session ?? ""}\0${cwd ?? ""}`;
    let snapshot = this.snapshots.get(key);
    if (!snapshot) {
      snapshot = this.load(engine, session, cwd);
      this.snapshots.set(key, snapshot);
      snapshot.catch(() => this.snapshots.delete(key));
    }
    return snapshot;
  }

  private async load(engine: AgentEngine, session: string | undefined, cwd: string | undefined) {
    let rows: SessionEntryRow[] = [];
    if (session) {
      let pending = this.sessions.get(session);
      if (!pending) this.sessions.set(session, (pending = this.sessionRowsFor(session)));
      rows = await pending;
    }
    return engine.load({ paths: this.paths, cwd, sessionRows: rows, sessionId: session });
  }

  /** The object `decide` prints for one call: exactly the contract's keys, plus the trace with `explain`. */
  async decide(input: DecideOneInput): Promise<{ out: Record<string, unknown>; ignoredDefault: string | null }> {
    const engine = await engineFor(input.agent);
    if (input.mode !== undefined && !engine.parseMode(input.mode).ok)
      throw new DecideInputError(`unknown mode "${input.mode}" for ${input.agent}`);
    const call = engine.parseCall(input.call);
    if (!call.ok) throw new DecideInputError(`call ${call.error}`);
    const cwd = input.cwd === undefined ? undefined : path.resolve(this.paths.workspace, input.cwd);
    const snapshot = await this.snapshot(engine, input.agent, input.session, cwd);
    const result = snapshot.decide({ call: call.value, mode: input.mode, cwd, options: input.options });
    const d = result.decision;
    const out: Record<string, unknown> = {
      decision: d.decision,
      step: d.step,
      rule: d.rule,
      scope: d.scope,
      store: d.store,
      reason: d.reason,
    };
    if (input.explain)
      Object.assign(
        out,
        { trace: d.trace, cause: d.cause, warnings: d.warnings, safetyCheck: d.safetyCheck },
        result.explain,
      );
    return { out, ignoredDefault: result.ignoredDefault ?? null };
  }
}
