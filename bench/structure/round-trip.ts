// The structure of the hook → card → answer → hook path, measured on the running code: which project files execute
// during one round trip (V8 precise coverage: a file counts when one of its functions ran), and how many imports
// between those files climb back up the layers of docs/decisions/0006-agent-interface-and-layers.md (a lower layer
// importing a higher one). The round trip is Claude Code's HTTP hook (PermissionRequest → card → long-poll) answered
// by a person through the answer route, in one process, after one warm-up trip.
//
// Run:   node --conditions=react-server --import tsx bench/structure/round-trip.ts [--files]
// Works on older trees too (the hook route was app/api/agent/v1/hooks/claude-code/): copy this file there.
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const rel = (f: string) => path.relative(ROOT, f);

/**
 * Layers, bottom to top: ADR 0006 as amended, the same table as .dependency-cruiser.cjs's LAYERS (the access model
 * below audit, the lint above the store files, the agents' dialects in the engine). Files outside are not counted.
 */
const LAYERS: [RegExp, number, string][] = [
  [
    /^lib\/(errors|text|sexp|config)\/|^lib\/version\.ts$|^lib\/agents\/(index|info)\.ts$|^lib\/agents\/[^/]+\/info\.ts$/,
    1,
    "foundations",
  ],
  [/^lib\/policy\/|^lib\/agents\/(dialects\.ts$|[^/]+\/dialect\.ts$)/, 2, "engine"],
  [/^lib\/stores\//, 3, "store files"],
  [/^lib\/hygiene\//, 4, "lint"],
  [/^lib\/agents\//, 5, "agents"],
  [/^lib\/policy-runtime\//, 6, "pipeline"],
  [/^db\//, 7, "data"],
  [/^lib\/auth\/(actor|access)\.ts$|^lib\/work\//, 8, "access model"],
  [/^lib\/audit\//, 9, "audit"],
  [/^lib\/auth\//, 10, "access"],
  [/^lib\/(session-entries|entries|cards|notify|workspaces)\//, 11, "verbs"],
  [/^lib\/(http|server|cli)\//, 12, "transports"],
  [/^(app|components)\/|^lib\/(client|cards-client)\//, 13, "edges"],
];
const layerOf = (f: string) => LAYERS.find(([re]) => re.test(f))?.[1] ?? null;

async function roundTripSetup() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cockpit-structure-"));
  const workspace = path.join(root, "project");
  fs.mkdirSync(path.join(workspace, ".claude"), { recursive: true });
  fs.mkdirSync(path.join(root, "home"));
  process.env.HOME = path.join(root, "home");
  process.env.COCKPIT_DATA = path.join(root, "data");
  process.env.COCKPIT_MANAGED_SETTINGS = "";
  const { openDb, setServerDb } = await import("@/db/client");
  const { workspaces, cards } = await import("@/db/schema");
  const { createAgentToken } = await import("@/lib/auth/agent-tokens");
  const { personHeaders } = await import("@/test/support/auth");
  const { NextRequest } = await import("next/server");
  const { and, eq } = await import("drizzle-orm");
  const opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
  await opened.db.insert(workspaces).values({ id: "w1", path: workspace, name: "project" });
  const { token } = await createAgentToken({
    db: opened.db,
    actor: { kind: "local", name: "local-cli" },
    input: { workspaceId: "w1" },
  });
  const person = await personHeaders(opened.db);
  const generic = path.join(ROOT, "app/api/agent/v1/hooks/[agent]/route.ts");
  const hookFile = fs.existsSync(generic) ? generic : path.join(ROOT, "app/api/agent/v1/hooks/claude-code/route.ts");
  type Handler = (
    req: InstanceType<typeof NextRequest>,
    ctx: { params: Promise<Record<string, string>> },
  ) => Promise<Response>;
  const hook = (await import(pathToFileURL(hookFile).href)) as { POST: Handler };
  const answer = (await import(pathToFileURL(path.join(ROOT, "app/api/v1/cards/[id]/answer/route.ts")).href)) as {
    POST: Handler;
  };
  const url = (p: string) => new URL(p, "http://localhost:3000");

  return {
    /** One round trip; `between` runs once the card is pending (to split admission from the answer path). */
    async trip(sessionId: string, between: () => Promise<void> = async () => {}) {
      const held = hook.POST(
        new NextRequest(url("/api/agent/v1/hooks/claude-code?wait=30"), {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({
            hook_event_name: "PermissionRequest",
            session_id: sessionId,
            cwd: workspace,
            permission_mode: "default",
            tool_name: "Bash",
            tool_input: { command: "npm run deploy" },
          }),
        }),
        { params: Promise.resolve({ agent: "claude-code" }) },
      );
      let card: { id: string; hash: string } | undefined;
      for (let i = 0; i < 500 && !card; i++) {
        [card] = await opened.db
          .select({ id: cards.id, hash: cards.hash })
          .from(cards)
          .where(and(eq(cards.agentSessionId, sessionId), eq(cards.status, "pending")));
        if (!card) await new Promise((r) => setTimeout(r, 10));
      }
      if (!card) throw new Error("no card was admitted");
      await between();
      const res = await answer.POST(
        new NextRequest(url(`/api/v1/cards/${card.id}/answer`), {
          method: "POST",
          headers: { ...person, "content-type": "application/json" },
          body: JSON.stringify({ outcome: "allow", remember: "once", hash: card.hash }),
        }),
        { params: Promise.resolve({ id: card.id }) },
      );
      if (res.status !== 200) throw new Error(`answer: ${res.status} ${await res.text()}`);
      const output = (await (await held).json()) as { hookSpecificOutput?: { decision?: { behavior?: string } } };
      if (output.hookSpecificOutput?.decision?.behavior !== "allow")
        throw new Error(`hook answered ${JSON.stringify(output)}`);
    },
    close: async () => {
      await opened.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Imports of a file that execute code (type-only imports don't), resolved to project files. */
function valueImports(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const s of src.statements) {
    let spec: string | null = null;
    if (ts.isImportDeclaration(s) && !s.importClause?.isTypeOnly) {
      const named = s.importClause?.namedBindings;
      const allTypes =
        s.importClause &&
        !s.importClause.name &&
        named &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((e) => e.isTypeOnly);
      if (!allTypes) spec = (s.moduleSpecifier as ts.StringLiteral).text;
    } else if (ts.isExportDeclaration(s) && s.moduleSpecifier && !s.isTypeOnly)
      spec = (s.moduleSpecifier as ts.StringLiteral).text;
    if (!spec) continue;
    const base = spec.startsWith("@/")
      ? path.join(ROOT, spec.slice(2))
      : spec.startsWith(".")
        ? path.resolve(path.dirname(path.join(ROOT, file)), spec)
        : null;
    if (!base) continue;
    const hit = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find(
      (c) => fs.existsSync(c) && fs.statSync(c).isFile(),
    );
    if (hit) out.push(rel(hit));
  }
  return out;
}

type Coverage = { result: { url: string; functions: { ranges: { count: number }[] }[] }[] };

/** Project files with a function that ran since the last reset. */
function visitedFiles(coverage: unknown): Set<string> {
  const visited = new Set<string>();
  for (const script of (coverage as Coverage).result) {
    if (!script.url.startsWith("file://")) continue;
    const file = rel(fileURLToPath(script.url.split("?")[0]!));
    if (file.startsWith("..") || file.includes("node_modules") || /^(bench|test)\//.test(file)) continue;
    // Counters were reset after the warm-up loaded every module, so any count is a call since (V8 folds a function
    // whose count equals its parent's into the parent's range, hence every range counts).
    if (script.functions.some((f) => f.ranges.some((r) => r.count > 0))) visited.add(file);
  }
  return visited;
}

function report(name: string, visited: Set<string>): void {
  const files = [...visited].sort();
  const climbs: string[] = [];
  let crossings = 0;
  for (const f of files) {
    for (const to of valueImports(f)) {
      if (!visited.has(to)) continue;
      const a = layerOf(f);
      const b = layerOf(to);
      if (a === null || b === null) continue;
      if (a < b) climbs.push(`${f} → ${to}`);
      if (a !== b) crossings++;
    }
  }
  const byLayer = new Map<string, number>();
  for (const f of files) {
    const layer = LAYERS.find(([re]) => re.test(f))?.[2] ?? "other";
    byLayer.set(layer, (byLayer.get(layer) ?? 0) + 1);
  }
  console.log(`\n${name}`);
  console.log(`  files visited: ${files.length} in ${new Set(files.map((f) => path.dirname(f))).size} folders`);
  console.log(`  climbs (a lower layer importing a higher one, among those files): ${climbs.length}`);
  console.log(`  imports between layers among those files: ${crossings}`);
  console.log(`  by layer: ${[...byLayer].map(([k, v]) => `${k} ${v}`).join(", ")}`);
  if (process.argv.includes("--files")) {
    console.log("  files:\n    " + files.join("\n    "));
    console.log("  climbs:\n    " + (climbs.join("\n    ") || "(none)"));
  }
}

async function main() {
  const env = await roundTripSetup();
  const session = new Session();
  try {
    await env.trip("warm-up");
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
    await session.post("Profiler.takePreciseCoverage"); // reset: only the measured trip counts
    let admission: Set<string> = new Set();
    await env.trip("measured", async () => {
      admission = visitedFiles(await session.post("Profiler.takePreciseCoverage"));
    });
    const answer = visitedFiles(await session.post("Profiler.takePreciseCoverage"));
    await session.post("Profiler.stopPreciseCoverage");
    const all = new Set([...admission, ...answer]);
    for (const [name, files] of [
      ["admission (hook → card pending)", admission],
      ["answer (answer → hook output)", answer],
      ["round trip", all],
    ] as const)
      report(name, files);
  } finally {
    session.disconnect();
    await env.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
