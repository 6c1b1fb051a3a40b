import type { AgentModule } from "../types";
import { info } from "./info";

export const agent: AgentModule = {
  info,
  engine: () => import("./engine").then((m) => m.engine),
  stores: () => import("./stores").then((m) => m.stores),
  demo: () => import("./demo").then((m) => m.demo),
  auditLog: () => import("./audit-log").then((m) => m.auditLog),
};
