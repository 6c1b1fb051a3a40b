import path from "node:path";
import { z } from "zod";

/** The cockpit's environment, validated once; a bad value stops start-up naming the variable. */
export const CockpitEnv = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  COCKPIT_DATA: z.string().min(1).default(".cockpit"),
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
  COCKPIT_LOGIN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
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
