import {
  decide,
  type Agent,
  type Decision,
  type Dialect,
  type Mode,
  type PolicyContext,
  type ShellParser,
  type ToolCall,
} from "@/lib/policy";
import type { StorePaths } from "@/lib/stores/discover";
import { cockpitProtectedPaths } from "@/lib/stores/policy-context";
import { policyContextFor, resolveModes, type AgentLocations, type ResolvedModes } from "./ladder-context";
import { loadPolicyInputs, type PolicyInputs, type StoreSemantics } from "./ladder-inputs";
import type { SessionRuleRow } from "@/lib/stores/session";
import { loadShellParser } from "./shell-parser";

/**
 * Everything one agent's decisions in one workspace need, loaded once: the parsed stores (from the
 * version cache: unchanged files are not read again), the session rules (rows passed in as data), the
 * shell parser and the protected paths. The engine's rule index is compiled on the first decision and
 * cached per rules array, which stays the same object while no store changes. Decide many calls with
 * one snapshot (`decideWith`); nothing in it is read again.
 */
export interface PolicySnapshot {
  agent: Agent;
  dialect: Dialect;
  /** The agent's plan and skill folders in this workspace. */
  locations: AgentLocations;
  paths: StorePaths;
  inputs: PolicyInputs;
  shell: ShellParser;
  protectedPaths: string[];
}

/** What an agent of the ladder family tells the shared engine besides its dialect (lib/agents/<agent>/engine.ts). */
export interface LadderOptions {
  /** Its plan and skill folders in a workspace (default: none). */
  locations?: (workspace: string, home: string) => AgentLocations;
  /** What its stores mean beyond their rules (trust, managed-only rules, ignored workspace modes). */
  semantics?: StoreSemantics;
}

export interface LoadPolicyInput extends LadderOptions {
  paths: StorePaths;
  dialect: Dialect;
  /** The session entries of the workspace (database rows, as data). */
  sessionRows?: readonly SessionRuleRow[];
  /** Only rows of this agent session become session rules. */
  sessionId?: string;
}

export async function loadPolicy(input: LoadPolicyInput): Promise<PolicySnapshot> {
  const [shell, inputs] = await Promise.all([
    loadShellParser(),
    loadPolicyInputs({
      ...input.paths,
      agent: input.dialect.id,
      dialect: input.dialect,
      semantics: input.semantics,
      sessionRows: input.sessionRows,
      sessionId: input.sessionId,
    }),
  ]);
  return {
    agent: input.dialect.id,
    dialect: input.dialect,
    locations: input.locations?.(input.paths.workspace, input.paths.home) ?? { skillDirs: [] },
    paths: input.paths,
    inputs,
    shell,
    protectedPaths: cockpitProtectedPaths(),
  };
}

export interface DecideRequest {
  call: ToolCall;
  /** The mode the agent reports (else the stores' defaultMode, else default). */
  mode?: string | null;
  /** The agent's working folder, relative to the workspace or absolute. */
  cwd?: string | null;
}

export interface SnapshotDecision extends ResolvedModes {
  decision: Decision;
  ctx: PolicyContext;
}

/** The engine's context for one call from a snapshot (no I/O). */
export function contextOf(
  snapshot: PolicySnapshot,
  req: Omit<DecideRequest, "call">,
): ResolvedModes & { ctx: PolicyContext } {
  const modes = resolveModes(snapshot.dialect, req.mode, snapshot.inputs);
  const ctx = policyContextFor({
    dialect: snapshot.dialect,
    locations: snapshot.locations,
    mode: modes.modeEffective as Mode,
    workspace: snapshot.paths.workspace,
    cwd: req.cwd,
    home: snapshot.paths.home,
    inputs: snapshot.inputs,
    shell: snapshot.shell,
    protectedPaths: snapshot.protectedPaths,
  });
  return { ...modes, ctx };
}

/** Decide one call against a snapshot with the pure engine: the same for the CLI, admission, settlement and coalescing. */
export function decideWith(snapshot: PolicySnapshot, req: DecideRequest): SnapshotDecision {
  const { ctx, ...modes } = contextOf(snapshot, req);
  return { ...modes, decision: decide(req.call, ctx), ctx };
}
