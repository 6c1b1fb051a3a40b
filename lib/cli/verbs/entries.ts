import { createHash } from "node:crypto";
import { revealHidden, terminalJson } from "@/lib/text/reveal";
import { parseAgentFlag, parseScopeFlag, storePathsFromFlags } from "../store-support";
import { STORE_AGENTS } from "@/lib/agents";
import { listAllEntries } from "@/lib/agents/all-stores";
import type { Entry, StoreInfo } from "@/lib/stores/types";
import { parseFlags, UsageError, type Verb } from "../verb";

const usage = `Usage: cockpit entries --workspace DIR [--json] [--agent A] [--scope S]

  List every permission entry of a workspace's agents: rules, resource grants and profiles, with
  the store (file) that holds each. Reads the files now; works without the server.

  --workspace DIR   project folder (default: the current folder); global stores come from $HOME
  --json            print a JSON array of entries; each invalid store adds one element
                    {"kind":"store","store":{…,"valid":false,"error"},"error"}
  --agent A         ${STORE_AGENTS.join(" | ")}
  --scope S         workspace | global | managed | session
  --stores          with --json, print {"entries","stores","banners"?} instead of the array

When an agent ignores every rule it has (Codex, when one of its rules files fails to load), the
listing starts with "!! Codex is ignoring all your rules because of FILE, line N: …" (with --json:
on stderr, and in "banners" with --stores).

Session entries live in the cockpit database and are listed in the web UI.`;

/**
 * The `--json` array: every entry, then one element per invalid store (it contributes no entries),
 * `{"kind":"store","store":{…,"valid":false,"error"},"error"}`, so a broken file is never silent.
 */
export function entriesJson(entries: Entry[], stores: StoreInfo[]): unknown[] {
  const invalid = stores
    .filter((s) => !s.valid)
    .map((s) => ({
      id: `store:${createHash("sha256").update(s.path).digest("hex").slice(0, 16)}`,
      scope: s.scope,
      kind: "store",
      agent: s.agent,
      action: null,
      rule: null,
      tool: null,
      specifier: null,
      store: { path: s.path, format: s.format, version: s.version, valid: false, error: s.error },
      error: s.error,
      line: Number(/line (\d+)/.exec(s.error ?? "")?.[1] ?? 0),
      writable: false,
    }));
  return [...entries, ...invalid];
}

function table(entries: Entry[], stores: StoreInfo[]): string {
  const out: string[] = [];
  for (const scope of ["session", "workspace", "global", "managed"] as const) {
    const scoped = stores.filter(
      (s) => s.scope === scope && (s.version !== "missing" || entries.some((e) => e.store.path === s.path)),
    );
    if (!scoped.length) continue;
    out.push(`${scope.toUpperCase()}`);
    for (const store of scoped) {
      const state = !store.valid
        ? `INVALID: ${store.error}`
        : store.version === "missing"
          ? "missing"
          : store.writable
            ? ""
            : `read-only${store.readOnlyReason ? ` (${store.readOnlyReason})` : ""}`;
      out.push(`  ${store.path}  [${store.format}]${state ? `  ${state}` : ""}`);
      if (store.inactive) out.push(`    not read by the agent: ${store.inactive}`);
      if (store.help) out.push(`    note: ${store.help}`);
      const mine = entries.filter((e) => e.store.path === store.path);
      if (!mine.length && store.valid) out.push("    (no entries)");
      for (const e of mine) {
        const extra = e.grant
          ? ` (${e.grant.label}, ${e.grant.access})`
          : e.profile
            ? ` [network ${e.profile.network ? "on" : "off"}; ${e.profile.fileSystem.map((g) => `${g.path} ${g.access} ${g.label}`).join(", ") || "no paths"}]`
            : "";
        out.push(
          `    ${e.id}  ${e.action.padEnd(5)}  ${e.kind.padEnd(7)}  ${e.rule}${extra}${e.malformed ? `  !! malformed: ${e.malformed}` : ""}  (line ${e.line})`,
        );
      }
    }
  }
  return out.length ? out.join("\n") + "\n" : "No stores found.\n";
}

export const entriesVerb: Verb = {
  name: "entries",
  summary: "list permission rules and grants with their backing stores",
  usage,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        workspace: { type: "string" },
        json: { type: "boolean" },
        agent: { type: "string" },
        scope: { type: "string" },
        stores: { type: "boolean" },
      },
      true,
    );
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const agent = parseAgentFlag(values.agent, false);
    const scope = parseScopeFlag(values.scope);
    const { entries, stores, banners } = await listAllEntries({
      ...storePathsFromFlags(values.workspace),
      agent,
      scope,
    });
    // The loudest states (an agent ignoring every rule because one file broke) come first; on stderr with --json.
    if (values.json) for (const b of banners) process.stderr.write(`cockpit entries: ${revealHidden(b)}\n`);
    if (values.json)
      process.stdout.write(
        terminalJson(
          values.stores ? { entries, stores, ...(banners.length ? { banners } : {}) } : entriesJson(entries, stores),
          2,
        ) + "\n",
      );
    // Store files come from cloned repositories too: their text never drives the terminal.
    else process.stdout.write(revealHidden(banners.map((b) => `!! ${b}\n\n`).join("") + table(entries, stores)));
    return 0;
  },
};
