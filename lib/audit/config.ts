/** Tunables of the audit chain; the server sets keyDir from COCKPIT_DATA, tests point it at a temp folder. */
export interface AuditConfig {
  /** Folder holding the Ed25519 checkpoint key. */
  keyDir?: string;
  /** A checkpoint is signed after this many events… */
  checkpointEvery: number;
  /** …or when the head is this old without one (checked by the background timer). */
  checkpointIntervalMs: number;
}

const key = Symbol.for("permissions-cockpit.audit-config");
type G = typeof globalThis & { [key]?: AuditConfig };

export function auditConfig(): AuditConfig {
  const g = globalThis as G;
  g[key] ??= { checkpointEvery: 1000, checkpointIntervalMs: 10 * 60 * 1000 };
  return g[key];
}

export function configureAudit(patch: Partial<AuditConfig>): void {
  Object.assign(auditConfig(), patch);
}

/** The key folder: configured, or the data folder of the environment. */
export async function keyDirOf(): Promise<string> {
  const dir = auditConfig().keyDir;
  if (dir) return dir;
  const { env } = await import("@/lib/config/env");
  return env().dataDir;
}
