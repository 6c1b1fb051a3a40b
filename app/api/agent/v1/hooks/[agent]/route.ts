import { z } from "zod";
import { json, route } from "@/lib/http/route";
import { inProcessPort } from "@/lib/cards/agent-port";
import { agentModule } from "@/lib/agents/registry";
import { NotFoundError } from "@/lib/errors";

export const dynamic = "force-dynamic";

const Params = z.object({ agent: z.string().max(64) });
const Query = z.object({ wait: z.coerce.number().min(1).max(600).default(590) });

/**
 * An agent's `"type": "http"` hook (Claude Code's): its connector maps the payload. A permission request admits a
 * card and holds the request until it settles, answering the agent's hook JSON; `{}` on timeout (the agent's own
 * prompt decides). If the connection closes first, the card settles `aborted`. A user prompt ends an absence hold;
 * tool-use events are recorded in the audit log.
 */
export const POST = route(
  { access: "agent", params: Params, body: z.unknown(), query: Query },
  async ({ req, db, actor, params, body, query }) => {
    if (actor.kind !== "agent") throw new Error("unreachable: agent access");
    const module = (() => {
      try {
        return agentModule(params.agent, "connector");
      } catch {
        throw new NotFoundError(`no hook for agent "${params.agent}"`);
      }
    })();
    const connector = await module.connector!();
    if (!connector.http) throw new NotFoundError(`${module.info.label} has no HTTP hook`);
    // A payload the connector does not accept is a 400 with the reasons, as for any body (route()).
    const output = await connector.handle(z.parse(connector.payload, body), {
      port: inProcessPort(db, actor),
      waitSeconds: query.wait,
      signal: req.signal,
    });
    return json(output ?? {});
  },
);
