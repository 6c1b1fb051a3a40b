/**
 * `cockpit decide --agent cursor` as one function (I/O: reads the stores; parser injected): the contract's JSON
 * `{"decision","step","rule","scope","store","reason"}` plus `inferred`, `inferredWhy` and, with `explain`, the trace.
 */
import type { ShellParser } from "@/lib/policy";
import { parseCursorCall } from "../call";
import { loadCursorContext } from "./context";
import { decideCursor, normalizeCursorMode, type CursorDecision } from "../decide";
import type { CursorEnv } from "../paths";

export interface DecideOnDisk extends CursorEnv {
  workspace: string;
  cwd?: string;
  mode?: string;
  /** The call JSON as given on the command line (validated here). */
  call: unknown;
  shell: ShellParser | null;
  explain?: boolean;
}

export type DecideOnDiskResult =
  | {
      ok: true;
      output: Omit<CursorDecision, "trace" | "warnings"> & Partial<Pick<CursorDecision, "trace" | "warnings">>;
    }
  | { ok: false; error: string };

export async function decideCursorOnDisk(o: DecideOnDisk): Promise<DecideOnDiskResult> {
  const mode = normalizeCursorMode(o.mode);
  if (!mode)
    return {
      ok: false,
      error: `unknown Cursor mode ${o.mode}: use default (allowlist), auto-review, force or unrestricted`,
    };
  const call = parseCursorCall(o.call);
  if (!call.ok) return { ok: false, error: call.error };
  const ctx = await loadCursorContext({ ...o, mode });
  const d = decideCursor(call.call, ctx);
  const { trace, warnings, ...rest } = d;
  return { ok: true, output: o.explain ? d : { ...rest, ...(warnings.length ? { warnings } : {}) } };
}
