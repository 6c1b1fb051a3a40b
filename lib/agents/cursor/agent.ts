import type { AgentModule } from "../types";
import { info } from "./info";

export const agent: AgentModule = {
  info,
  engine: () => import("./agent-engine").then((m) => m.engine),
  stores: () => import("./agent-stores").then((m) => m.stores),
  connector: () => import("./agent-connector").then((m) => m.connector),
  demo: () => import("./demo").then((m) => m.demo),
};
