import { createHash } from "node:crypto";

/** Domain tags keep a row hash from ever being mistaken for a checkpoint statement, or the reverse. */
export const ROW_TAG = "permissions-cockpit/audit-row/v1";
export const CHECKPOINT_TAG = "permissions-cockpit/audit-checkpoint/v1";
/** prev_hash of the very first row. */
export const GENESIS = "0".repeat(64);

/** JSON with object keys sorted at every level: the same value always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value as object)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The hashed content of a row: every column except `hash` itself. */
export interface ChainedRow {
  seq: number;
  at: Date;
  workspaceId: string | null;
  actor: string;
  actorType: string | null;
  actorId: string | null;
  actorRole: string | null;
  actorSession: string | null;
  actorChannel: string | null;
  actorAddress: string | null;
  action: string;
  target: string | null;
  outcome: string | null;
  decisionSource: string | null;
  rule: string | null;
  store: string | null;
  agent: string | null;
  agentSessionId: string | null;
  toolUseId: string | null;
  cwd: string | null;
  tool: string | null;
  input: Record<string, unknown> | null;
  detail: Record<string, unknown>;
  prevHash: string | null;
}

const FIELDS: Array<keyof ChainedRow> = [
  "seq",
  "at",
  "workspaceId",
  "actor",
  "actorType",
  "actorId",
  "actorRole",
  "actorSession",
  "actorChannel",
  "actorAddress",
  "action",
  "target",
  "outcome",
  "decisionSource",
  "rule",
  "store",
  "agent",
  "agentSessionId",
  "toolUseId",
  "cwd",
  "tool",
  "input",
  "detail",
  "prevHash",
];

/** SHA-256 over the tag and the canonical JSON of the row's fields (seq and prev hash included). */
export function rowHash(row: ChainedRow): string {
  const content: Record<string, unknown> = {};
  for (const f of FIELDS) content[f] = row[f] ?? null;
  content.seq = Number(row.seq);
  return createHash("sha256")
    .update(`${ROW_TAG}\n${canonicalJson(content)}`)
    .digest("hex");
}

/** The exact bytes a checkpoint signature covers. */
export function checkpointStatement(c: { seq: number; headHash: string; at: Date }): Buffer {
  return Buffer.from(`${CHECKPOINT_TAG}\n${canonicalJson({ seq: Number(c.seq), headHash: c.headHash, at: c.at })}`);
}
