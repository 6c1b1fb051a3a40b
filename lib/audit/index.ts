export { recordAudit, recordAuditBatch, type Tx } from "./record";
export { auditActor, namedActor, SYSTEM_ACTOR } from "./actor";
export {
  AUDIT_EVENT_TYPES,
  DECISION_SOURCES,
  type AuditActor,
  type AuditEvent,
  type AuditEventType,
  type DecisionSource,
} from "./events";
export { sanitizeInput, maskString } from "./sanitize";
export { checkpointIfDue, checkpointMessage, checkpointNow, latestCheckpoint } from "./checkpoint";
