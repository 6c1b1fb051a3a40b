import { safeParse } from "zod/mini";
import { readLocalCredential } from "@/lib/auth/local-credential";
import { dataDirOf } from "@/lib/config/data-dir";
import { CONNECTOR_AGENTS } from "@/lib/agents";
import { connectorArg } from "../connector-arg";
import { httpPort } from "../hook-port";
import { type Verb } from "../verb";

const usage = `Usage: cockpit hook ${CONNECTOR_AGENTS.join("|")}   (reads the agent's hook payload on stdin)

  A permission request posts a card to the cockpit, waits for the answer and prints the agent's
  allow/deny JSON. Unreachable cockpit, bad token, timeout or any error: prints nothing (or the
  agent's own "ask"), so the agent's own prompt decides (never allows by default).
  A user prompt tells the cockpit the user wrote again (ends an absence hold).
  Tool-use events are recorded in the cockpit's audit log.

Environment:
  COCKPIT_TOKEN      agent token (create one with \`cockpit agent-token create --workspace DIR\`)
  COCKPIT_URL        the cockpit (default: the running cockpit's local URL, else http://localhost:3000)
  COCKPIT_HOOK_WAIT  seconds to wait for an answer (default 590)`;

function cockpitUrl(): string {
  if (process.env.COCKPIT_URL) return process.env.COCKPIT_URL.replace(/\/$/, "");
  const credential = readLocalCredential(dataDirOf());
  return credential ? credential.url.replace(/\/$/, "") : "http://localhost:3000";
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export const hookVerb: Verb = {
  name: "hook",
  summary: "agent hook bridge: mirror permission prompts to the cockpit",
  usage,
  async run(argv) {
    const { connector } = await connectorArg(argv);
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
    process.once("SIGHUP", onSignal);
    // The agent may end the hook by closing its pipes; a reparented process has lost its agent.
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid !== parent) stop.abort();
    }, 1000);
    watch.unref();
    let output: unknown = null;
    let raw: unknown = null;
    // An agent that lets an action through on an empty answer says what to print instead (its own "ask").
    const fallback = (why: string) => connector.fallback?.(raw, why) ?? null;
    try {
      const token = process.env.COCKPIT_TOKEN;
      raw = JSON.parse(await readStdin());
      const parsed = safeParse(connector.payload, raw);
      if (!token) output = fallback("no COCKPIT_TOKEN in the agent's environment");
      else if (!parsed.success) output = fallback("a hook payload the cockpit cannot read");
      else {
        const wait = Number(process.env.COCKPIT_HOOK_WAIT ?? 590);
        output = await connector.handle(parsed.data, {
          port: httpPort(cockpitUrl(), token),
          waitSeconds: Number.isFinite(wait) && wait > 0 ? wait : 590,
          signal: stop.signal,
        });
        if (stop.signal.aborted) output = fallback("the agent ended the hook");
      }
    } catch (error) {
      // Unreachable cockpit, bad token, bad payload: no output (or the agent's own "ask"), so its prompt decides.
      output = fallback(`the cockpit could not be asked (${(error as Error).message})`);
    } finally {
      clearInterval(watch);
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      process.off("SIGHUP", onSignal);
    }
    if (output !== null && !(typeof output === "object" && Object.keys(output as object).length === 0))
      process.stdout.write(JSON.stringify(output) + "\n");
    return 0;
  },
};
