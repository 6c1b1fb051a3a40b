import { ValidationError } from "@/lib/errors";
import { CONNECTOR_AGENTS } from "@/lib/agents";
import { connectorOf } from "@/lib/agents/registry";
import type { AgentConnector } from "@/lib/agents/types";

/**
 * The agent named on the command line, with its connector (apart from connect-support: the hook bridge's small
 * bundle imports this, not the environment schema); unknown or without one: a usage error (exit 2). */
export async function connectorArg(positionals: string[]): Promise<{ id: string; connector: AgentConnector }> {
  if (positionals.length !== 1)
    throw new ValidationError(
      positionals.length
        ? `name one agent, not "${positionals.join(" ")}"`
        : `name the agent: ${CONNECTOR_AGENTS.join(", ")}`,
    );
  const id = positionals[0]!;
  try {
    return { id, connector: await connectorOf(id) };
  } catch (error) {
    throw new ValidationError((error as Error).message);
  }
}
