import type { WebhookFormat } from "@/db/schema/notify";
import { JSON_PAYLOAD_VERSION } from "./json";

export interface CheckpointData {
  seq: number;
  headHash: string;
  at: string;
  keyId: string;
  signature: string;
}

/** An `audit.checkpoint` message: the full signed statement in JSON, a one-line summary elsewhere. */
export function renderCheckpointBody(
  format: WebhookFormat,
  checkpoint: CheckpointData & Record<string, unknown>,
  options: { ntfyTopic?: string | null } = {},
): string {
  const line = `Audit checkpoint: seq ${checkpoint.seq}, head ${checkpoint.headHash.slice(0, 16)}…, signature ${checkpoint.signature.slice(0, 16)}…`;
  if (format === "ntfy")
    return JSON.stringify({ topic: options.ntfyTopic, title: "Audit checkpoint", message: line, tags: ["lock"] });
  if (format === "slack") return JSON.stringify({ text: line });
  if (format === "discord") return JSON.stringify({ content: line });
  return JSON.stringify({
    type: "audit.checkpoint",
    version: JSON_PAYLOAD_VERSION,
    timestamp: checkpoint.at,
    data: { checkpoint },
  });
}
