import { env } from "@/lib/config/env";
import { publicBaseUrl } from "@/lib/config/base-url";
import { parseAllowHosts, type LookupAll } from "./ssrf";

/** Seams for tests and the benchmark; the server uses the defaults. */
export interface NotifyEnv {
  now?: () => Date;
  lookupAll?: LookupAll;
  /** Hosts from COCKPIT_WEBHOOK_ALLOW_HOSTS; the admin's list from the database is added to these. */
  envAllowHosts?: string[];
  /** Per-request timeout. */
  timeoutMs?: number;
  /** Seconds to wait before each attempt after the first (index 0 = before attempt 2). */
  schedule?: number[];
  /** 0..1 source for the ±10 % jitter. */
  random?: () => number;
  publicUrl?: string;
  /** Lifetime cap of ntfy action tokens. */
  actionTokenTtlMs?: number;
}

/** Standard Webhooks' example schedule after the immediate first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
export const REQUEST_TIMEOUT_MS = 10_000;
export const ACTION_TOKEN_TTL_MS = 12 * 3600 * 1000;

export const nowOf = (e: NotifyEnv) => e.now?.() ?? new Date();
export const envAllowHostsOf = (e: NotifyEnv) => e.envAllowHosts ?? parseAllowHosts(env().COCKPIT_WEBHOOK_ALLOW_HOSTS);
export const publicUrlOf = (e: NotifyEnv) => (e.publicUrl ?? publicBaseUrl()).replace(/\/$/, "");
export const cardUrl = (e: NotifyEnv, cardId: string) => `${publicUrlOf(e)}/cards/${encodeURIComponent(cardId)}`;
