import { createHash } from "node:crypto";
import type { CardRemember } from "@/db/schema";

/** JSON with object keys sorted at every level, so equal content always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** Everything an approver sees on a card; the answer must carry this hash. */
export interface CardContent {
  tool: string;
  input: Record<string, unknown>;
  agent: string;
  sessionId: string;
  rootSessionId: string;
  originPath: string;
  workspaceId: string;
  reason: string | null;
  modeBase: string;
  modeEffective: string;
  cause: string;
  warnings: string[];
  remember: CardRemember;
}

export function cardHash(content: CardContent): string {
  return createHash("sha256").update(canonicalJson(content)).digest("hex");
}
