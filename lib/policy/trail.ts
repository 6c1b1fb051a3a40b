import type { Action, Cause, Decision, Rule, StepName, TraceEntry } from "./types";

/** Accumulates the trace of one decision and builds the final answer. */
export class Trail {
  readonly trace: TraceEntry[] = [];
  readonly warnings = new Set<string>();

  pass(step: StepName, why: string): void {
    this.trace.push({ step, outcome: "passed", why });
  }

  skip(step: StepName, why: string): void {
    this.trace.push({ step, outcome: "skipped", why });
  }

  warn(w: string): void {
    this.warnings.add(w);
  }

  decide(
    decision: Action,
    step: StepName,
    reason: string,
    cause: Cause,
    opts: { rule?: Rule | null; safetyCheck?: boolean; protected?: boolean } = {},
  ): Decision {
    this.trace.push({ step, outcome: "decided", why: reason });
    const rule = opts.rule ?? null;
    return {
      decision,
      step,
      reason,
      cause,
      rule: rule?.text ?? null,
      scope: rule?.source.scope ?? null,
      store: rule?.source.store ?? null,
      trace: this.trace,
      warnings: [...this.warnings],
      safetyCheck: opts.safetyCheck ?? opts.protected ?? false,
      ...(opts.protected ? { protected: true } : {}),
    };
  }
}
