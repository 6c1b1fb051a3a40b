import { spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ScriptedCall, ToolResult } from "./fake-api";
import { ROOT } from "./install";
import {
  SHIMMED,
  chownScratch,
  makeScratch,
  readHookLog,
  recorderHook,
  runClaude,
  type OracleUser,
  type RunOutcome,
  type Scratch,
} from "./run";
import type { Permissions, Scenario } from "./scenarios";

/** What the real Claude Code did with one call. `error`: it failed before any permission check (bad input). */
export type Observed = "allow" | "ask" | "deny" | "error";

export interface CockpitAnswer {
  decision?: "allow" | "ask" | "deny";
  step?: string;
  rule?: string | null;
  reason?: string;
  error?: string;
}

export interface Verdict {
  index: number;
  call: ScriptedCall;
  claude: Observed;
  /** Claude Code's tool result (first 300 characters): its reason when it asked or refused. */
  claudeSaid: string;
  cockpit: CockpitAnswer;
  agree: boolean;
  /** For a disagreement: the cockpit lets through more than Claude Code (allow > ask > deny), or less. */
  cockpitIs?: "more permissive" | "stricter";
}

export interface ScenarioResult {
  scenario: Scenario;
  verdicts: Verdict[];
  seconds: number;
  /** Set when the run itself failed (no JSON result, a crash): its verdicts are then empty. */
  failure?: string;
}

function substitute<T>(value: T, s: Scratch): T {
  const text = JSON.stringify(value).replaceAll("{WS}", s.workspace).replaceAll("{HOME}", s.home);
  return JSON.parse(text) as T;
}

/** Paths in tool inputs as Claude Code's model would send them: absolute and normalised. */
function resolveCall(call: ScriptedCall, s: Scratch): ScriptedCall {
  const input = substitute(call.input, s);
  if (typeof input.file_path === "string") input.file_path = path.normalize(input.file_path);
  return { name: call.name, input };
}

function at(s: Scratch, rel: string): string {
  return rel.startsWith("~/") ? path.join(s.home, rel.slice(2)) : path.resolve(s.workspace, rel);
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

/** Settings files, trust, files and links of a scenario, in a fresh scratch folder. */
export function prepareScratch(sc: Scenario, user: OracleUser | null): Scratch {
  const s = makeScratch(user);
  const rec = recorderHook(s);
  const hooks = Object.fromEntries(
    ["PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure"].map((e) => [
      e,
      [{ matcher: "*", hooks: [rec] }],
    ]),
  );
  const settings = (p: Permissions | undefined) => (p ? { permissions: substitute(p, s) } : undefined);
  writeJson(path.join(s.home, ".claude/settings.json"), { ...settings(sc.user), hooks });
  if (sc.project) writeJson(path.join(s.workspace, ".claude/settings.json"), settings(sc.project));
  if (sc.local) writeJson(path.join(s.workspace, ".claude/settings.local.json"), settings(sc.local));
  writeJson(path.join(s.home, ".claude.json"), {
    hasCompletedOnboarding: true,
    projects: { [s.workspace]: { hasTrustDialogAccepted: sc.trusted } },
  });
  for (const f of sc.files ?? []) {
    mkdirSync(path.dirname(at(s, f)), { recursive: true });
    writeFileSync(at(s, f), "x\n");
  }
  for (const [link, target] of sc.links ?? []) {
    mkdirSync(path.dirname(at(s, link)), { recursive: true });
    symlinkSync(at(s, target), at(s, link));
  }
  chownScratch(s, user);
  return s;
}

/** Claude Code's input-check refusals that come from permission rules (seen in 2.1.332). */
const REFUSED_BEFORE_HOOKS =
  /denied by your permission settings|covered by a Read deny rule|is disabled for this session|blocked by a deny rule/;

/**
 * Reads what Claude Code did with each call from the recorder hook's log: PermissionRequest fired → it asked;
 * PostToolUse or PostToolUseFailure (the tool ran, successfully or not) → it ran the call without asking;
 * PreToolUse but neither → it refused on its own (deny rule, dontAsk, plan…). No PreToolUse: the call failed
 * Claude Code's input checks, where a Read deny rule or a bare tool deny (the tool is then removed) also refuse.
 */
export function observe(hooks: Record<string, unknown>[], results: ToolResult[], count: number): Observed[] {
  const asked = new Set<string>();
  const reached = new Set<string>();
  const ran = new Set<string>();
  let current = "";
  for (const h of hooks) {
    const event = h.hook_event_name;
    if (event === "PreToolUse") {
      current = String(h.tool_use_id);
      reached.add(current);
    } else if (event === "PermissionRequest") asked.add(current);
    else if (event === "PostToolUse" || event === "PostToolUseFailure") ran.add(String(h.tool_use_id));
  }
  return Array.from({ length: count }, (_, i) => {
    const id = `toolu_oracle_${i + 1}`;
    if (asked.has(id)) return "ask";
    if (ran.has(id)) return "allow";
    if (reached.has(id)) return "deny";
    return REFUSED_BEFORE_HOOKS.test(results[i]?.content ?? "") ? "deny" : "error";
  });
}

/** `cockpit decide --jsonl` over the scenario's calls, in the scratch workspace with the scratch HOME. */
export function cockpitDecide(sc: Scenario, s: Scratch, calls: ScriptedCall[]): Promise<CockpitAnswer[]> {
  const lines = calls.map((c) =>
    JSON.stringify({
      agent: "claude-code",
      ...(sc.mode ? { mode: sc.mode } : {}),
      call: { tool: c.name, input: c.input },
    }),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "bin/cockpit.mjs"), "decide", "--jsonl", "--workspace", s.workspace],
      {
        cwd: ROOT,
        env: { ...process.env, HOME: s.home, COCKPIT_MANAGED_SETTINGS: "" },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c));
    child.on("error", reject);
    child.on("close", () => {
      const answers = out
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as CockpitAnswer);
      if (answers.length !== calls.length)
        reject(new Error(`cockpit decide answered ${answers.length} of ${calls.length}: ${err}`));
      else resolve(answers);
    });
    child.stdin.end(lines.join("\n") + "\n");
  });
}

const rank = (d: string | undefined) => (d === "allow" ? 2 : d === "ask" ? 1 : 0);

/** A shimmed command that ran without its shim's output means PATH did not hold: stop everything. */
function assertShimsHeld(calls: ScriptedCall[], observed: Observed[], run: RunOutcome): void {
  calls.forEach((c, i) => {
    if (c.name !== "Bash" || observed[i] !== "allow") return;
    const first = String(c.input.command).trim().split(/\s+/)[0] ?? "";
    const result = run.toolResults[i]?.content ?? "";
    if (SHIMMED.includes(first) && !result.includes(`shim ${first}`) && !/background|command not found/i.test(result))
      throw new Error(`safety: "${first}" ran without its shim (${JSON.stringify(result.slice(0, 200))}); stopping`);
  });
}

export async function runScenario(sc: Scenario, bin: string, user: OracleUser | null): Promise<ScenarioResult> {
  const started = Date.now();
  const s = prepareScratch(sc, user);
  try {
    const calls = sc.calls.map((c) => resolveCall(c, s));
    const [run, cockpit] = await Promise.all([
      runClaude({
        bin,
        user,
        scratch: s,
        calls,
        args: sc.mode ? ["--permission-mode", sc.mode] : [],
        // Each call may wait on hooks; a busy machine needs minutes for a dozen calls.
        timeoutMs: 120_000 + 30_000 * calls.length,
      }),
      cockpitDecide(sc, s, calls),
    ]);
    if (!run.result)
      return {
        scenario: sc,
        verdicts: [],
        seconds: (Date.now() - started) / 1000,
        failure: `claude exited ${run.code}: ${(run.stderr || run.stdout).slice(0, 500)}`,
      };
    const observed = observe(readHookLog(s), run.toolResults, calls.length);
    assertShimsHeld(calls, observed, run);
    const verdicts = calls.map((call, index): Verdict => {
      const claude = observed[index]!;
      const answer = cockpit[index]!;
      const agree = claude === "error" || answer.decision === claude;
      return {
        index,
        call: sc.calls[index]!,
        claude,
        claudeSaid: (run.toolResults[index]?.content ?? "").slice(0, 300),
        cockpit: answer,
        agree,
        ...(agree ? {} : { cockpitIs: rank(answer.decision) > rank(claude) ? "more permissive" : "stricter" }),
      };
    });
    return { scenario: sc, verdicts, seconds: (Date.now() - started) / 1000 };
  } finally {
    s.cleanup();
  }
}
