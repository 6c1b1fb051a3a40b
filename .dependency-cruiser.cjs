/**
 * Import rules checked by `npm test` (suite "imports", scripts/test-all.mjs):
 * no circular imports anywhere, and lib/policy stays pure (no file system, process, network or database).
 * Run by hand: npx depcruise lib app components db bin scripts instrumentation.ts
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
      comment: "lib/policy decides from data handed to it: no I/O, no database, no stores, no framework.",
      from: {
        path: "^lib/policy/",
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
      name: "browser-client-imports-types-only",
      severity: "error",
      comment:
        "The browser API client takes response types from lib with `import type`; values only from browser-safe modules.",
      from: { path: "^lib/(client|cards-client)/", pathNot: "\\.test\\.ts$" },
      to: {
        path: "^(db|lib)/",
        pathNot: "^lib/(client|cards-client|text)/|^lib/entries/filters\\.ts$|^lib/policy/tools\\.ts$",
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
