import type { Verb } from "../verb";
import { addVerb } from "./add";
import { decideVerb } from "./decide";
import { entriesVerb } from "./entries";
import { lintVerb } from "./lint";
import { narrowVerb } from "./narrow";
import { revokeVerb } from "./revoke";
import { loginLinkVerb } from "./login-link";
import { startVerb } from "./start";
import { workspaceVerb } from "./workspace";
import { agentTokenVerb } from "./agent-token";
import { connectVerb } from "./connect";
import { demoVerb } from "./demo";
import { disconnectVerb } from "./disconnect";
import { hookVerb } from "./hook";
import { sessionsVerb } from "./sessions";
import { simulateVerb } from "./simulate";
import { auditVerb } from "./audit";

// Each verb lives in its own file; add it here to make it reachable.
export const verbs: Verb[] = [
  startVerb,
  loginLinkVerb,
  workspaceVerb,
  decideVerb,
  entriesVerb,
  lintVerb,
  revokeVerb,
  narrowVerb,
  addVerb,
  agentTokenVerb,
  connectVerb,
  disconnectVerb,
  hookVerb,
  simulateVerb,
  demoVerb,
  sessionsVerb,
  auditVerb,
];
