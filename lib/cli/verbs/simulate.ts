import { ForbiddenError, NotFoundError, UnavailableError, ValidationError } from "@/lib/errors";
import { serverRefusal } from "../server-client";
import fs from "node:fs";
import { terminalJson } from "@/lib/text/reveal";
import path from "node:path";
import { z } from "zod";
import { CARD_AGENTS, DEMO_AGENT, type CardAgent } from "@/lib/agents";
import { callServer } from "../server-client";
import { parseFlags, type Verb } from "../verb";
import { hookUrl, workspaceFolder } from "./connect-support";

const usage = `Usage: cockpit simulate --workspace DIR --script FILE [--token T] [--url URL]

  Plays a scripted agent through the cockpit's agent API (the same policy engine and queue as a real
  agent) and prints one JSON line per step: {"step","tool","status","outcome","message","id"}.

  --script FILE  JSON: { "agent"?, "sessionId", "rootSessionId"?, "mode"?, "agentAsked"?, "loop"?, "pauseMs"?,
                 "steps": [{ "tool", "input", "originPath"?, "reason"?, "waitSeconds"? } | { "userMessage": true }] }
  --token T      agent token (default COCKPIT_TOKEN; else one is created for DIR on the running cockpit)
  --url URL      the cockpit (default COCKPIT_URL, else the running cockpit's local URL)`;

const Step = z.union([
  z.object({ userMessage: z.literal(true) }),
  z.object({
    tool: z.string().min(1),
    input: z.record(z.string(), z.unknown()).default({}),
    originPath: z.string().optional(),
    reason: z.string().optional(),
    waitSeconds: z.number().positive().max(86_400).default(300),
  }),
]);
export const SimulatorScript = z.object({
  agent: z.enum(CARD_AGENTS).default(DEMO_AGENT.id as CardAgent),
  sessionId: z
    .string()
    .min(1)
    .default(() => `sim-${crypto.randomUUID().slice(0, 8)}`),
  rootSessionId: z.string().min(1).optional(),
  mode: z.string().optional(),
  /** The agent itself decided to ask (its PermissionRequest hook): rules it weighed never allow the card. */
  agentAsked: z.boolean().optional(),
  steps: z.array(Step).min(1),
  loop: z.boolean().default(false),
  pauseMs: z.number().int().min(0).max(600_000).default(500),
});
export type SimulatorScript = z.infer<typeof SimulatorScript>;

async function agentCall(
  base: string,
  token: string,
  method: string,
  apiPath: string,
  body?: unknown,
  timeoutMs = 15_000,
): Promise<{ status: number; json: Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(base + apiPath, {
      method,
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new UnavailableError(`the cockpit at ${base} is not reachable`);
  }
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status === 429) {
    // The cockpit rate-limits each agent token: wait as told, then ask again, like a polite agent.
    const seconds = Math.min(60, Math.max(1, Number(res.headers.get("retry-after")) || 1));
    await new Promise((r) => setTimeout(r, seconds * 1000));
    return agentCall(base, token, method, apiPath, body, timeoutMs);
  }
  if (res.status === 401)
    throw new ForbiddenError("the cockpit refused the agent token (revoked, or for another cockpit)");
  if (res.status >= 400)
    throw serverRefusal(res.status, json, `${method} ${apiPath}: ${String(json.error ?? `HTTP ${res.status}`)}`);
  return { status: res.status, json };
}

/** Runs the script; `onLine` gets each outcome. Returns when the script ends (never, with loop, unless `signal` aborts). */
export async function runSimulation({
  base,
  token,
  workspace,
  script,
  onLine,
  signal,
}: {
  base: string;
  token: string;
  workspace: string;
  script: SimulatorScript;
  onLine: (line: Record<string, unknown>) => void;
  signal?: AbortSignal;
}): Promise<void> {
  let round = 0;
  do {
    const sessionId = script.loop && round > 0 ? `${script.sessionId}-${round}` : script.sessionId;
    for (const [index, step] of script.steps.entries()) {
      if (signal?.aborted) return;
      if ("userMessage" in step) {
        const { json } = await agentCall(
          base,
          token,
          "POST",
          `/api/agent/v1/sessions/${encodeURIComponent(script.rootSessionId ?? sessionId)}/user-message`,
        );
        onLine({ step: index, userMessage: true, holdEnded: json.holdEnded });
        continue;
      }
      const admitted = await agentCall(base, token, "POST", "/api/agent/v1/cards", {
        agent: script.agent,
        sessionId,
        rootSessionId: script.rootSessionId,
        originPath: step.originPath,
        cwd: workspace,
        mode: script.mode,
        tool: step.tool,
        input: step.input,
        reason: step.reason,
        ...(script.agentAsked ? { agentAsked: true } : {}),
      });
      if (admitted.status === 200) {
        const d = admitted.json.decision as { decision: string; reason: string };
        onLine({
          step: index,
          tool: step.tool,
          status: admitted.json.status,
          outcome: d.decision,
          message: d.reason,
          id: null,
        });
      } else {
        const id = String(admitted.json.id);
        const deadline = Date.now() + step.waitSeconds * 1000;
        let outcome: Record<string, unknown> = { status: "pending", settlement: null };
        while (outcome.status === "pending" && Date.now() < deadline && !signal?.aborted) {
          const wait = Math.max(1, Math.min(300, Math.ceil((deadline - Date.now()) / 1000)));
          const asked = Date.now();
          outcome = (
            await agentCall(base, token, "GET", `/api/agent/v1/cards/${id}?wait=${wait}`, undefined, (wait + 15) * 1000)
          ).json;
          // Released early (the cockpit is restarting): pause before asking again.
          if (outcome.status === "pending" && Date.now() - asked < (wait - 1) * 1000)
            await new Promise((r) => setTimeout(r, 1000));
        }
        if (outcome.status === "pending") {
          await agentCall(base, token, "DELETE", `/api/agent/v1/cards/${id}`);
          outcome = {
            status: "aborted",
            settlement: { outcome: "deny", message: "no answer in time; the simulated agent gave up" },
          };
        }
        const s = outcome.settlement as { outcome?: string; message?: string | null } | null;
        onLine({
          step: index,
          tool: step.tool,
          status: outcome.status,
          outcome: s?.outcome ?? null,
          message: s?.message ?? null,
          id,
        });
      }
      if (script.pauseMs) await new Promise((r) => setTimeout(r, script.pauseMs));
    }
    round++;
  } while (script.loop && !signal?.aborted);
}

async function agentTokenFor(workspace: string, flag: string | undefined): Promise<string> {
  const token = flag ?? process.env.COCKPIT_TOKEN;
  if (token) return token;
  const created = await callServer<{ token: string }>("POST", "/api/v1/agent-tokens", {
    workspace,
    name: DEMO_AGENT.id,
  });
  return created.token;
}

export const simulateVerb: Verb = {
  name: "simulate",
  summary: "play a scripted agent through the agent API (demos, tests)",
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      { workspace: { type: "string" }, script: { type: "string" }, token: { type: "string" }, url: { type: "string" } },
      true,
    );
    if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
    if (!values.script) throw new ValidationError("--script FILE is required");
    const workspace = workspaceFolder(values.workspace);
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(path.resolve(values.script), "utf8"));
    } catch (error) {
      throw new NotFoundError(`cannot read the script ${values.script}: ${(error as Error).message}`);
    }
    const parsed = SimulatorScript.safeParse(raw);
    if (!parsed.success)
      throw new ValidationError(
        `invalid script: ${parsed.error.issues.map((i) => `${i.path.join(".") || "script"} ${i.message}`).join("; ")}`,
      );
    const base = hookUrl(values.url);
    const token = await agentTokenFor(workspace, values.token);
    await runSimulation({
      base,
      token,
      workspace,
      script: parsed.data,
      onLine: (line) => process.stdout.write(terminalJson(line) + "\n"),
    });
    return 0;
  },
};
