import path from "node:path";
import { z } from "zod";
import { normalizeMode } from "@/lib/policy";
import { decideWith, loadPolicy, type PolicySnapshot } from "@/lib/policy-runtime/snapshot";
import type { StorePaths } from "@/lib/stores/discover";
import type { SessionEntryRow } from "@/lib/stores/session";
import type { Agent } from "@/lib/stores/types";

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
  agent: Agent;
  call: DecideCall;
  mode?: string;
  session?: string;
  /** The agent's working folder: absolute, or relative to the workspace. */
  cwd?: string;
  explain?: boolean;
}

/** Bad input for one call (unknown mode…): the CLI's usage error, one `{"error"}` line in `--jsonl`. */
export class DecideInputError extends Error {}

/**
 * Decides calls for one workspace, keeping one policy snapshot per agent and session. `checkStores()` makes
 * the next call of each agent ask the store cache again (a stat per file): unchanged files keep their parse
 * and the engine its compiled rule index; a changed file is read again. Session rows are fetched once per session.
 */
export class Decider {
  private readonly sessions = new Map<string, Promise<SessionEntryRow[]>>();
  private snapshots = new Map<string, Promise<PolicySnapshot>>();

  constructor(
    readonly paths: StorePaths,
    private readonly sessionRowsFor: (sessionId: string) => Promise<SessionEntryRow[]>,
  ) {}

  /** Look at the files' versions again before the next decision (`--jsonl`: once per batch of lines read). */
  checkStores(): void {
    this.snapshots = new Map();
  }

  private snapshot(agent: Agent, session: string | undefined): Promise<PolicySnapshot> {
    const key = `${agent}\0${session ?? ""}`;
    let snapshot = this.snapshots.get(key);
    if (!snapshot) {
      snapshot = this.load(agent, session);
      this.snapshots.set(key, snapshot);
      snapshot.catch(() => this.snapshots.delete(key));
    }
    return snapshot;
  }

  private async load(agent: Agent, session: string | undefined): Promise<PolicySnapshot> {
    let rows: SessionEntryRow[] = [];
    if (session) {
      let pending = this.sessions.get(session);
      if (!pending) this.sessions.set(session, (pending = this.sessionRowsFor(session)));
      rows = await pending;
    }
    return loadPolicy({ paths: this.paths, agent, sessionRows: rows, sessionId: session });
  }

  /** The object `decide` prints for one call: exactly the contract's keys, plus the trace with `explain`. */
  async decide(input: DecideOneInput): Promise<{ out: Record<string, unknown>; ignoredDefault: string | null }> {
    if (input.mode !== undefined && !normalizeMode(input.agent, input.mode).ok)
      throw new DecideInputError(`unknown mode "${input.mode}" for ${input.agent}`);
    const snapshot = await this.snapshot(input.agent, input.session);
    const cwd = input.cwd === undefined ? undefined : path.resolve(this.paths.workspace, input.cwd);
    const { decision: d, ctx, ignoredDefault } = decideWith(snapshot, { call: input.call, mode: input.mode, cwd });
    const out: Record<string, unknown> = {
      decision: d.decision,
      step: d.step,
      rule: d.rule,
      scope: d.scope,
      store: d.store,
      reason: d.reason,
    };
    if (input.explain)
      Object.assign(out, {
        trace: d.trace,
        cause: d.cause,
        warnings: d.warnings,
        safetyCheck: d.safetyCheck,
        mode: ctx.mode,
      });
    return { out, ignoredDefault: ignoredDefault ?? null };
  }
}
