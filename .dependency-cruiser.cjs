/**
 * Import rules checked by `npm test` (suite "imports", scripts/test-all.mjs): no circular imports anywhere; the
 * layer order of docs/decisions/0006-agent-interface-and-layers.md (a module imports only from its own layer or the
 * layers below it, types included); lib/policy and the agent cores stay pure; the browser imports only the
 * browser-safe modules (docs/conventions.md).
 * Run by hand: npx depcruise lib app components db bin scripts bench instrumentation.ts --output-type err
 */

/**
 * The layers, bottom to top (ADR 0006). Each pattern matches exactly its layer's files: a file named in a lower
 * layer (the agent catalogue, the access model) is excluded from its folder's layer by a lookahead.
 */
const LAYERS = [
  {
    name: "foundations",
    path: "^lib/(errors|text|sexp|config)/|^lib/version\\.ts$|^lib/agents/(index|info)\\.ts$|^lib/agents/[^/]+/info\\.ts$",
  },
  // The engine, and the agents' dialects it is handed (pure data each agent defines in its folder).
  { name: "engine", path: "^lib/policy/|^lib/agents/(dialects\\.ts$|[^/]+/dialect\\.ts$)" },
  { name: "store files", path: "^lib/stores/" },
  { name: "lint", path: "^lib/hygiene/" },
  { name: "agents", path: "^lib/agents/(?!(index|info|dialects)\\.ts$|[^/]+/(info|dialect)\\.ts$)" },
  { name: "decision pipeline", path: "^lib/policy-runtime/" },
  { name: "data", path: "^db/" },
  { name: "access model", path: "^lib/auth/(actor|access)\\.ts$|^lib/work/" },
  { name: "audit", path: "^lib/audit/" },
  { name: "access", path: "^lib/auth/(?!(actor|access)\\.ts$)" },
  { name: "verbs", path: "^lib/(session-entries|entries|cards|notify|workspaces)/" },
  { name: "transports", path: "^lib/(http|server|cli)/" },
  { name: "edges", path: "^(app|components|lib/client|lib/cards-client)/" },
];

/** Code the browser runs: every client component and the browser's API client and card helpers live here. */
const BROWSER_CODE = "^(components|lib/client|lib/cards-client)/";
/**
 * The modules the browser may import values from (docs/conventions.md): the browser folders, pure text helpers,
 * the agent catalogue (pure data), the tool model's names, the Rules page's filters and the lint's kinds.
 * Server modules with database access are also marked `import "server-only"` (lib/server-only.test.ts).
 */
const BROWSER_SAFE = [
  "^(components|lib/client|lib/cards-client|lib/text)/",
  "^lib/agents/(index|info)\\.ts$",
  "^lib/agents/[^/]+/info\\.ts$",
  "^lib/policy/(tools|types)\\.ts$",
  "^lib/entries/filters\\.ts$",
  "^lib/hygiene/types\\.ts$",
];

/**
 * Where a rule cannot hold yet, the exception is named here with its reason (and in ADR 0006).
 * - agents → db/schema/cards.ts, type-only: the agent interface passes the card row's JSON shapes (remember
 *   options, status, settlement) to and from the port; they are plain types with no run-time import.
 * - audit → lib/notify/signing.ts: the audit writer queues its checkpoint webhook with the Standard Webhooks
 *   message id; signing.ts imports only node:crypto.
 */
const LAYER_EXCEPTIONS = {
  agents: { to: "^db/schema/cards\\.ts$", typeOnly: true },
  audit: { to: "^lib/notify/signing\\.ts$" },
};

const layerRules = LAYERS.slice(0, -1).map((layer, i) => {
  const above = LAYERS.slice(i + 1).map((l) => `(?:${l.path})`);
  const exception = LAYER_EXCEPTIONS[layer.name];
  const rule = {
    name: `layer-${layer.name.replace(/ /g, "-")}`,
    severity: "error",
    comment: `The ${layer.name} layer imports only from itself and the layers below it (${
      LAYERS.slice(0, i)
        .map((l) => l.name)
        .join(", ") || "none"
    }); ADR 0006.`,
    from: { path: layer.path, pathNot: "\\.test\\.tsx?$" },
    to: { path: above },
  };
  if (exception && !exception.typeOnly) rule.to.pathNot = exception.to;
  return rule;
});
// A type-only exception: the run-time import is still forbidden.
for (const [name, exception] of Object.entries(LAYER_EXCEPTIONS)) {
  if (!exception.typeOnly) continue;
  const rule = layerRules.find((r) => r.name === `layer-${name.replace(/ /g, "-")}`);
  rule.to.pathNot = exception.to;
  layerRules.push({
    ...rule,
    name: `${rule.name}-types-only`,
    comment: `${rule.comment} ${exception.to} is imported for its types only.`,
    to: { path: exception.to, dependencyTypesNot: ["type-only"] },
  });
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "no-circular",
      severity: "error",
      comment: "A module must not import itself through a chain of imports.",
      from: {},
      to: { circular: true },
    },
    {
      name: "policy-is-pure",
      severity: "error",
      comment:
        "lib/policy decides from data handed to it, and the agents' dialects are that data: no I/O, no database, no stores, no framework.",
      from: {
        path: ["^lib/policy/", "^lib/agents/dialects\\.ts$", "^lib/agents/[^/]+/dialect\\.ts$"],
        pathNot: ["\\.test\\.ts$"],
      },
      to: {
        path: [
          "^(node:)?(fs|fs/promises|child_process|net|http|https|http2|dgram|dns|tls|os|worker_threads|cluster|module)$",
          "^db/",
          "^lib/(stores|entries|cards|notify|server|workspaces|auth|http|cli|session-entries|config)/",
          "^node_modules/(next|pg|@electric-sql/pglite|drizzle-orm|web-push|server-only)/",
        ],
      },
    },
    {
      name: "codex-core-is-pure",
      severity: "error",
      comment:
        "lib/agents/codex decides and edits text handed to it; only lib/agents/codex/io/ and the interface modules (engine, stores, connector) read or write files.",
      from: {
        path: "^lib/agents/codex/",
        pathNot: ["^lib/agents/codex/io/", "^lib/agents/codex/(engine|stores|connector)\\.ts$", "\\.test\\.ts$"],
      },
      to: {
        path: [
          "^(node:)?(fs|fs/promises|child_process|net|http|https|http2|dgram|dns|tls|os|worker_threads|cluster|module)$",
          "^db/",
          "^lib/(entries|cards|notify|server|workspaces|auth|http|cli|session-entries|config)/",
          "^lib/stores/(?!json-edit\\.ts$)",
          "^lib/agents/codex/io/",
        ],
      },
    },
    {
      name: "gemini-core-is-pure",
      severity: "error",
      comment:
        "lib/agents/gemini decides from data handed to it; only lib/agents/gemini/io/ and the interface modules (agent-engine, agent-stores, agent-connector) touch the disk.",
      from: {
        path: "^lib/agents/gemini/",
        pathNot: [
          "^lib/agents/gemini/io/",
          "^lib/agents/gemini/agent-(engine|stores|connector)\\.ts$",
          "\\.test\\.ts$",
        ],
      },
      to: {
        path: [
          "^(node:)?(fs|fs/promises|child_process|net|http|https|http2|dgram|dns|tls|os|worker_threads|cluster|module)$",
          "^db/",
          "^lib/agents/gemini/io/",
        ],
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "cursor-core-is-pure",
      severity: "error",
      comment:
        "lib/agents/cursor decides and edits text from data handed to it; disk access lives in lib/agents/cursor/io/ and the interface modules (agent-engine, agent-stores, agent-connector).",
      from: {
        path: "^lib/agents/cursor/",
        pathNot: [
          "^lib/agents/cursor/io/",
          "^lib/agents/cursor/index\\.ts$",
          "^lib/agents/cursor/agent-(engine|stores|connector)\\.ts$",
          "\\.test\\.ts$",
        ],
      },
      to: {
        path: [
          "^(node:)?(fs|fs/promises|child_process|net|http|https|http2|dgram|dns|tls|os|worker_threads|cluster|module)$",
          "^db/",
          "^lib/agents/cursor/io/",
          "^lib/(cards|notify|server|workspaces|auth|http|cli|session-entries|config|policy-runtime)/",
          "^lib/stores/(?!(json-edit|json-append|errors)\\.ts$)",
        ],
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "gemini-oracle-in-tests-only",
      severity: "error",
      comment: "@google/gemini-cli-core is a dev-only judge (differential tests, bench/), never used at run time.",
      from: { pathNot: ["\\.test\\.ts$", "^bench/"] },
      to: { path: "@google/gemini-cli-core" },
    },
    {
      name: "browser-imports-browser-safe-only",
      severity: "error",
      comment:
        "Code the browser runs (components/, lib/client/, lib/cards-client/) takes values only from the browser-safe modules (BROWSER_SAFE); from any other lib or db module it takes types, with `import type`.",
      from: { path: BROWSER_CODE, pathNot: "\\.test\\.tsx?$" },
      to: { path: "^(db|lib)/", pathNot: BROWSER_SAFE, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "browser-safe-stays-browser-safe",
      severity: "error",
      comment:
        "A browser-safe module imports values only from other browser-safe modules and no Node built-in, so whatever the browser reaches through it is browser-safe too.",
      from: { path: BROWSER_SAFE, pathNot: "\\.test\\.tsx?$" },
      to: {
        path: [
          "^(db|lib)/",
          "^(node:)?(fs|fs/promises|path|crypto|child_process|net|http|https|http2|dgram|dns|tls|os|worker_threads|cluster|module|stream|zlib)$",
          "^node_modules/(next/server|pg|@electric-sql/pglite|drizzle-orm|web-push|server-only)",
        ],
        pathNot: BROWSER_SAFE,
        dependencyTypesNot: ["type-only"],
      },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^(node_modules|\\.next)" },
  },
};
