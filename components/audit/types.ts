/** One audit row as the Audit page receives it (`GET /api/v1/audit`). */
export interface AuditEventView {
  seq: number;
  at: string;
  type: string;
  workspace: string | null;
  actor: {
    label: string;
    type: string | null;
    id: string | null;
    role: string | null;
    session: string | null;
    channel: string | null;
    address: string | null;
  };
  target: string | null;
  outcome: string | null;
  source: string | null;
  rule: string | null;
  store: string | null;
  agent: string | null;
  agentSession: string | null;
  toolUseId: string | null;
  cwd: string | null;
  tool: string | null;
  input: Record<string, unknown> | null;
  detail: Record<string, unknown>;
  hash: string | null;
}
