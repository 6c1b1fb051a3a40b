/**
 * The connector's run for one hook invocation (what `cockpit hook cursor` will do): read the payload, decide locally
 * from Cursor's own files, answer what may be answered without a person, otherwise admit a card and wait. Every
 * failure answers `ask` (reads: deny) — never allow. I/O comes in through `HookDeps`, so tests drive it end to end.
 */
import { decideCursor, type CursorContext, type CursorDecision } from "./decide";
import {
  auditEvent,
  callOf,
  cardRequest,
  CursorHookPayload,
  fallbackOutput,
  isGate,
  outputForCard,
  verdictFor,
  type CardOutcome,
  type CursorHookOutput,
  type GatePayload,
  type McpServerEntry,
} from "./hook";

export type Api = (
  method: string,
  path: string,
  body?: unknown,
  timeoutMs?: number,
) => Promise<{ status: number; json: unknown }>;

export interface HookDeps {
  /** The decision context for the payload (stores from its cwd / workspace root, the shell parser). */
  context(p: GatePayload): Promise<CursorContext>;
  /** MCP servers from mcp.json, to name the server of a beforeMCPExecution call. */
  mcpServers?(p: GatePayload): Promise<Record<string, McpServerEntry>>;
  /** The cockpit's API with the agent token, or null when none is configured (then no cards: `ask`). */
  api: Api | null;
  /** How long to wait for a person, in seconds (below the hook's `timeout` in hooks.json). */
  waitSeconds: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface HookRun {
  output: CursorHookOutput;
  /** How it was reached, for logs and tests. */
  via: "local" | "card" | "fallback" | "record";
  decision?: CursorDecision;
}

const sleeper = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function record(api: Api | null, body: ReturnType<typeof auditEvent>): Promise<void> {
  if (!api) return;
  try {
    await api("POST", "/api/agent/v1/events", { agent: "cursor", events: [body] }, 5_000);
  } catch {
    // Auditing is best effort: a cockpit that is down must not hold up Cursor.
  }
}

/** Admit the card and long-poll for a person's answer until `waitSeconds` run out. */
async function askPerson(
  api: Api,
  p: GatePayload,
  body: ReturnType<typeof cardRequest>,
  deps: HookDeps,
): Promise<CursorHookOutput> {
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? sleeper;
  const admitted = await api("POST", "/api/agent/v1/cards", body, 10_000);
  if (admitted.status === 200) {
    // Settled by policy the cockpit holds (a rule a person just saved): the server says allow or deny.
    const d = (admitted.json as { decision?: { decision?: string; reason?: string } } | null)?.decision;
    if (d?.decision === "allow") return { permission: "allow" };
    if (d?.decision === "deny") return fallbackDeny(d.reason);
    return fallbackOutput(p.hook_event_name, "unexpected answer from the cockpit");
  }
  if (admitted.status !== 201)
    return fallbackOutput(p.hook_event_name, `the cockpit refused the card (HTTP ${admitted.status})`);
  const id = (admitted.json as { id?: string } | null)?.id;
  if (!id) return fallbackOutput(p.hook_event_name, "no card id");
  const deadline = now() + deps.waitSeconds * 1000;
  for (;;) {
    const left = Math.ceil((deadline - now()) / 1000);
    if (left <= 0) return outputForCard({ status: "pending", settlement: null });
    const wait = Math.min(left, 300);
    let res;
    try {
      res = await api(
        "GET",
        `/api/agent/v1/cards/${encodeURIComponent(id)}?wait=${wait}`,
        undefined,
        (wait + 15) * 1000,
      );
    } catch {
      await sleep(1000); // a restarting cockpit keeps the card: reconnect and keep waiting
      continue;
    }
    if (res.status >= 500) {
      await sleep(1000);
      continue;
    }
    if (res.status !== 200) return fallbackOutput(p.hook_event_name, `HTTP ${res.status} while waiting`);
    const outcome = res.json as CardOutcome;
    if (outcome?.status !== "pending") return outputForCard(outcome);
  }
}

const fallbackDeny = (reason?: string): CursorHookOutput => ({
  permission: "deny",
  user_message: reason || "Denied in the permissions cockpit",
  agent_message: `${reason || "Denied in the permissions cockpit"}. Do not retry it in another form; ask the user.`,
});

/** One hook invocation: stdin text in, the JSON Cursor reads out. Never throws. */
export async function runCursorHook(stdin: string, deps: HookDeps): Promise<HookRun> {
  let raw: unknown;
  try {
    raw = JSON.parse(stdin);
  } catch {
    return { output: fallbackOutput(undefined, "payload is not JSON"), via: "fallback" };
  }
  const event = (raw as { hook_event_name?: unknown } | null)?.hook_event_name;
  const parsed = CursorHookPayload.safeParse(raw);
  if (!parsed.success)
    return {
      output: fallbackOutput(typeof event === "string" ? event : undefined, "unrecognised payload"),
      via: "fallback",
    };
  const p = parsed.data;
  if (!isGate(p)) {
    await record(deps.api, auditEvent(p));
    return { output: {}, via: "record" };
  }
  let decision: CursorDecision;
  let call;
  try {
    call = callOf(p, (await deps.mcpServers?.(p)) ?? {});
    decision = decideCursor(call, await deps.context(p));
  } catch (error) {
    return {
      output: fallbackOutput(p.hook_event_name, `cannot read Cursor's settings: ${(error as Error).message}`),
      via: "fallback",
    };
  }
  const v = verdictFor(p, decision);
  if (v.kind === "answer") {
    await record(deps.api, auditEvent(p, { output: v.output, decision }));
    return { output: v.output, via: "local", decision };
  }
  if (!deps.api)
    return { output: fallbackOutput(p.hook_event_name, "no cockpit token configured"), via: "fallback", decision };
  try {
    const output = await askPerson(deps.api, p, cardRequest(p, call, decision), deps);
    return { output, via: "card", decision };
  } catch (error) {
    return {
      output: fallbackOutput(p.hook_event_name, `cockpit unreachable: ${(error as Error).message}`),
      via: "fallback",
      decision,
    };
  }
}
