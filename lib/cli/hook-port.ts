import http from "node:http";
import https from "node:https";
import type { CardOutcome, CockpitPort } from "@/lib/agents/types";

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

const pause = () => new Promise((r) => setTimeout(r, 1000));
const PENDING: CardOutcome = { status: "pending", settlement: null };

/** The cockpit as a command hook reaches it: the agent API over HTTP with the agent token. */
export function httpPort(base: string, token: string): CockpitPort {
  const call = api(base, token);
  return {
    async admit(card) {
      const admitted = await call("POST", "/api/agent/v1/cards", card);
      if (admitted.status === 200) {
        const d = (admitted.json as { decision: { decision: "allow" | "deny"; reason: string } }).decision;
        return { status: "settled", decision: d.decision, reason: d.reason };
      }
      if (admitted.status !== 201) return { status: "refused", why: `HTTP ${admitted.status}` };
      return { status: "pending", id: (admitted.json as { id: string }).id };
    },
    /** Long-polls until an answer, the wait runs out, or `signal` aborts; reconnects to a restarting cockpit. */
    async wait(id, seconds, signal) {
      const deadline = Date.now() + seconds * 1000;
      try {
        while (!signal?.aborted) {
          const left = Math.ceil((deadline - Date.now()) / 1000);
          if (left <= 0) break;
          const wait = Math.min(left, 300);
          let res;
          const asked = Date.now();
          try {
            res = await call("GET", `/api/agent/v1/cards/${id}?wait=${wait}`, undefined, (wait + 15) * 1000, signal);
          } catch {
            if (signal?.aborted) break;
            // A restarting cockpit: the card persists, so reconnect and keep waiting.
            await pause();
            if (Date.now() >= deadline) break;
            continue;
          }
          if (res.status >= 500) {
            await pause();
            continue;
          }
          // The card is gone or not ours: nothing to wait for and nothing to retire.
          if (res.status !== 200) return { status: "aborted", settlement: null };
          const outcome = res.json as CardOutcome;
          if (outcome.status !== "pending") return outcome;
          // Released early (the cockpit is restarting): pause before asking again.
          if (Date.now() - asked < (wait - 1) * 1000) await pause();
        }
      } catch {
        // fall through: the caller retires the card
      }
      return PENDING;
    },
    async abort(id) {
      await call("DELETE", `/api/agent/v1/cards/${id}`, undefined, 5000);
    },
    async userMessage(sessionId) {
      await call("POST", `/api/agent/v1/sessions/${encodeURIComponent(sessionId)}/user-message`, undefined, 5000);
    },
    async toolUse(agent, event) {
      await call("POST", "/api/agent/v1/tool-use", { agent, ...event }, 5000);
    },
  };
}
