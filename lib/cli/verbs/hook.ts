import http from "node:http";
import https from "node:https";
import { readLocalCredential } from "@/lib/auth/local-credential";
import { dataDirOf } from "@/lib/config/data-dir";
import {
  ClaudeHookPayload,
  hookOutputFor,
  allowOutput,
  denyOutput,
  originPathOf,
  type ClaudeHookOutput,
} from "@/lib/agents/claude-code/hook";
import { UsageError, type Verb } from "../verb";

const usage = `Usage: cockpit hook claude-code   (reads Claude Code's hook payload on stdin)

  PermissionRequest  posts a card to the cockpit, waits for the answer and prints Claude Code's
                     allow/deny JSON. Unreachable cockpit, bad token, timeout or any error: prints
                     nothing, so Claude Code's own terminal prompt decides (never allows by default).
  UserPromptSubmit   tells the cockpit the user wrote again (ends an absence hold).
  PreToolUse/PostToolUse  recorded in the cockpit's audit log.

Environment:
  COCKPIT_TOKEN      agent token (create one with \`cockpit agent-token create --workspace DIR\`)
  COCKPIT_URL        the cockpit (default: the running cockpit's local URL, else http://localhost:3000)
  COCKPIT_HOOK_WAIT  seconds to wait for an answer (default 590)`;

function cockpitUrl(): string {
  if (process.env.COCKPIT_URL) return process.env.COCKPIT_URL.replace(/\/$/, "");
  const credential = readLocalCredential(dataDirOf());
  return credential ? credential.url.replace(/\/$/, "") : "http://localhost:3000";
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

type Api = (
  method: string,
  apiPath: string,
  body?: unknown,
  timeoutMs?: number,
  cancel?: AbortSignal,
) => Promise<{ status: number; json: unknown }>;

/**
 * One HTTP exchange on a fresh connection (no keep-alive): a reused socket would keep a stopping
 * cockpit process alive and pin the hook to it instead of reconnecting to the restarted one.
 */
function api(base: string, token: string): Api {
  return (method, apiPath, body, timeoutMs = 10_000, cancel) =>
    new Promise((resolve, reject) => {
      const url = new URL(apiPath, base);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const lib = url.protocol === "https:" ? https : http;
      const req = lib.request(
        url,
        {
          method,
          agent: false,
          headers: {
            authorization: `Bearer ${token}`,
            ...(payload === undefined
              ? {}
              : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => {
            try {
              resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null });
            } catch (error) {
              reject(error);
            }
          });
          res.on("error", reject);
        },
      );
      const timer = setTimeout(() => req.destroy(new Error("timeout")), timeoutMs);
      const onCancel = () => req.destroy(new Error("cancelled"));
      cancel?.addEventListener("abort", onCancel);
      req.on("close", () => {
        clearTimeout(timer);
        cancel?.removeEventListener("abort", onCancel);
      });
      req.on("error", reject);
      req.end(payload);
    });
}

/** Posts the permission request and long-polls until an answer, the wait runs out, or the process is told to stop. */
async function permissionRequest(
  call: Api,
  payload: ClaudeHookPayload,
  waitSeconds: number,
  stopping: AbortSignal,
): Promise<ClaudeHookOutput> {
  const admitted = await call("POST", "/api/agent/v1/cards", {
    agent: "claude-code",
    sessionId: payload.session_id,
    originPath: originPathOf(payload),
    cwd: payload.cwd,
    mode: payload.permission_mode,
    tool: payload.tool_name,
    input: payload.tool_input ?? {},
    // Claude Code fires PermissionRequest only when it decided to ask: its own rules never turn that into allow.
    agentAsked: true,
  });
  if (admitted.status === 200) {
    const d = (admitted.json as { decision: { decision: string; reason: string } }).decision;
    return d.decision === "allow" ? allowOutput() : denyOutput(d.reason);
  }
  if (admitted.status !== 201) return {};
  const id = (admitted.json as { id: string }).id;
  const deadline = Date.now() + waitSeconds * 1000;
  try {
    while (!stopping.aborted) {
      const left = Math.ceil((deadline - Date.now()) / 1000);
      if (left <= 0) break;
      const wait = Math.min(left, 300);
      let res;
      const asked = Date.now();
      try {
        res = await call("GET", `/api/agent/v1/cards/${id}?wait=${wait}`, undefined, (wait + 15) * 1000, stopping);
      } catch (error) {
        if (stopping.aborted) break;
        // A restarting cockpit: the card persists, so reconnect and keep waiting.
        await new Promise((r) => setTimeout(r, 1000));
        void error;
        if (Date.now() >= deadline) break;
        continue;
      }
      if (res.status >= 500) {
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (res.status !== 200) return {};
      const outcome = res.json as Parameters<typeof hookOutputFor>[0];
      if (outcome.status !== "pending") return hookOutputFor(outcome);
      // Released early (the cockpit is restarting): pause before asking again.
      if (Date.now() - asked < (wait - 1) * 1000) await new Promise((r) => setTimeout(r, 1000));
    }
  } catch {
    // fall through to the abort below
  }
  // Nobody answered in time, or Claude Code stopped us (the terminal answered): retire the card.
  await call("DELETE", `/api/agent/v1/cards/${id}`, undefined, 5000).catch(() => undefined);
  return {};
}

export const hookVerb: Verb = {
  name: "hook",
  summary: "Claude Code hook bridge: mirror permission prompts to the cockpit",
  usage,
  async run(argv) {
    if (argv.length !== 1 || argv[0] !== "claude-code")
      throw new UsageError(
        argv.length ? `unknown agent "${argv.join(" ")}" (only claude-code)` : "name the agent: claude-code",
      );
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
    process.once("SIGHUP", onSignal);
    // Claude Code may end the hook by closing its pipes; a reparented process has lost its agent.
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid !== parent) stop.abort();
    }, 1000);
    watch.unref();
    let output: ClaudeHookOutput = {};
    try {
      const token = process.env.COCKPIT_TOKEN;
      const parsed = ClaudeHookPayload.safeParse(JSON.parse(await readStdin()));
      if (token && parsed.success) {
        const payload = parsed.data;
        const call = api(cockpitUrl(), token);
        const event = payload.hook_event_name;
        if (event === "PermissionRequest" && payload.tool_name) {
          const wait = Number(process.env.COCKPIT_HOOK_WAIT ?? 590);
          output = await permissionRequest(call, payload, Number.isFinite(wait) && wait > 0 ? wait : 590, stop.signal);
          if (stop.signal.aborted) output = {};
        } else if (event === "UserPromptSubmit") {
          await call(
            "POST",
            `/api/agent/v1/sessions/${encodeURIComponent(payload.session_id)}/user-message`,
            undefined,
            5000,
          );
        } else if (event === "PreToolUse" || event === "PostToolUse") {
          await call("POST", "/api/agent/v1/hooks/claude-code", payload, 5000);
        }
      }
    } catch {
      // Unreachable cockpit, bad token, bad payload: no output, so the terminal prompt decides.
      output = {};
    } finally {
      clearInterval(watch);
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      process.off("SIGHUP", onSignal);
    }
    if (Object.keys(output).length) process.stdout.write(JSON.stringify(output) + "\n");
    return 0;
  },
};
