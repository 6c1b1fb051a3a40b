import { ValidationError } from "@/lib/errors";
import { revealHidden, terminalJson } from "@/lib/text/reveal";
import { callServer } from "../server-client";
import { parseFlags, type Verb } from "../verb";

const usage = `Usage: cockpit sessions <list [--json] | release ROOT_SESSION_ID --workspace ID>

  list      agent root sessions with pending cards, a running absence deadline, or an absence hold
  release   end an absence hold (as if the user had written to the agent again)

Needs the running cockpit.`;

interface SessionRow {
  workspace: { id: string; name: string };
  rootSessionId: string;
  pending: number;
  deadline: string | null;
  heldSince: string | null;
}

export const sessionsVerb: Verb = {
  name: "sessions",
  summary: "list agent sessions with pending cards or absence holds; release a hold",
  usage,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "list") {
      const { values, positionals } = parseFlags(rest, { json: { type: "boolean" } }, true);
      if (positionals.length) throw new ValidationError(`unexpected argument "${positionals[0]}"`);
      const { sessions } = await callServer<{ sessions: SessionRow[] }>("GET", "/api/v1/sessions");
      // Session ids and names are agent-chosen: never let them drive the terminal.
      if (values.json) process.stdout.write(terminalJson(sessions, 2) + "\n");
      else if (!sessions.length) process.stdout.write("No sessions with pending cards or holds.\n");
      else
        for (const s of sessions)
          process.stdout.write(
            revealHidden(
              `${s.rootSessionId}  ${s.workspace.name} (${s.workspace.id})  ${s.pending} pending${s.deadline ? `  expires ${s.deadline}` : ""}${s.heldSince ? `  HELD since ${s.heldSince}` : ""}`,
            ) + "\n",
          );
      return 0;
    }
    if (sub === "release") {
      const { values, positionals } = parseFlags(rest, { workspace: { type: "string" } }, true);
      if (positionals.length !== 1) throw new ValidationError("sessions release takes exactly one root session id");
      if (!values.workspace) throw new ValidationError("--workspace ID is required");
      const { holdEnded } = await callServer<{ holdEnded: boolean }>(
        "POST",
        `/api/v1/sessions/${encodeURIComponent(positionals[0]!)}/release`,
        { workspace: values.workspace },
      );
      const id = revealHidden(positionals[0]!);
      process.stdout.write(holdEnded ? `Released the hold on ${id}.\n` : `${id} was not held; nothing changed.\n`);
      return 0;
    }
    throw new ValidationError(sub ? `unknown subcommand "${sub}"` : "missing subcommand");
  },
};
