import path from "node:path";
import { z } from "zod";
import { DEFAULT_DATA_DIR } from "./data-dir";

/**
 * Where the agents' stores live: `$HOME` (global stores) and the managed settings file
 * (`COCKPIT_MANAGED_SETTINGS`: unset = the platform default, empty = none). Read on every call
 * (`storeEnv()`), not cached: tests and the CLI point `HOME` elsewhere at run time.
 */
export const StoreEnv = z.object({
  HOME: z
    .string()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  COCKPIT_MANAGED_SETTINGS: z.string().optional(),
});
export type StoreEnv = z.infer<typeof StoreEnv>;

/** The store part of `source` (default process.env), parsed now; throws EnvError naming a bad variable. */
export function storeEnv(source: Record<string, string | undefined> = process.env): StoreEnv {
  const parsed = StoreEnv.safeParse({ HOME: source.HOME, COCKPIT_MANAGED_SETTINGS: source.COCKPIT_MANAGED_SETTINGS });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join(".") || "env"}: ${issue.message}`);
    throw new EnvError(`invalid environment — ${lines.join("; ")}`);
  }
  return parsed.data;
}

/** The cockpit's environment, validated once; a bad value stops start-up naming the variable. */
export const CockpitEnv = StoreEnv.extend({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  COCKPIT_DATA: z.string().min(1).default(DEFAULT_DATA_DIR),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  COCKPIT_PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  COCKPIT_WEBHOOK_ALLOW_HOSTS: z.string().default(""),
  /** "1": behind a reverse proxy; client keys (login throttle) come from its X-Forwarded-For entry. */
  COCKPIT_TRUST_PROXY: z
    .enum(["", "0", "1"], { message: 'must be "1" (trust X-Forwarded-For from a reverse proxy) or "0"' })
    .default("0")
    .transform((v) => v === "1"),
  COCKPIT_LOGIN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  /** Days to keep audit events; older ones are cut up to a signed checkpoint. Empty = keep forever. */
  COCKPIT_AUDIT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(36_500)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  COCKPIT_SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 14),
  /** A session unused this long ends (idle timeout). */
  COCKPIT_SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 90)
    .default(60 * 24 * 7),
  /** Where `cockpit start` binds; loopback unless a person opts in (see README "Approve from your phone"). */
  COCKPIT_HOST: z
    .string()
    .trim()
    .regex(/^[\w.:-]+$/, "must be a host name or an IP address, e.g. 127.0.0.1 or 0.0.0.0")
    .default("127.0.0.1"),
  /** Largest agent settings file the cockpit reads; larger stores are listed invalid and never written. */
  COCKPIT_MAX_STORE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  /** Pending cards one agent token may hold at once; more get 429. */
  COCKPIT_MAX_PENDING_PER_TOKEN: z.coerce.number().int().min(1).max(100_000).default(200),
  /** Card admissions per agent token: a token bucket refilled at this rate per minute… */
  COCKPIT_ADMISSIONS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  /** …holding at most this many admissions for a burst. */
  COCKPIT_ADMISSION_BURST: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Audit events one agent token may report per minute (events API and tool-use hooks)… */
  COCKPIT_AGENT_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** …and per UTC day; beyond either, 429 with Retry-After and nothing of that batch is recorded. */
  COCKPIT_AGENT_EVENTS_PER_DAY: z.coerce.number().int().min(1).max(100_000_000).default(50_000),
});
export type CockpitEnv = z.infer<typeof CockpitEnv> & { dataDir: string };

export class EnvError extends Error {}

/** Parses `source` (default process.env); throws EnvError naming each bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): CockpitEnv {
  const parsed = CockpitEnv.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join(".") || "env"}: ${issue.message}`);
    throw new EnvError(`invalid environment — ${lines.join("; ")}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.COCKPIT_DATA) };
}

let cached: CockpitEnv | undefined;
/** The process environment, parsed on first use. */
export function env(): CockpitEnv {
  cached ??= loadEnv();
  return cached;
}
