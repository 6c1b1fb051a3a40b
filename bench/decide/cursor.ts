// Decision latency of the Cursor CLI engine (lib/agents/cursor): p50/p99 µs per decision by token count, for shell
// (single and compound), path, fetch and MCP calls. Run by hand: npx tsx bench/decide/cursor.ts
import { parseCursorConfig } from "../../lib/agents/cursor/config";
import { decideCursor, type CursorStoreView } from "../../lib/agents/cursor/decide";
import type { CursorCall } from "../../lib/agents/cursor/call";
import { loadShellParser } from "../../lib/agents/shared/shell-parser";

const TEMPLATES = [
  "Shell(tool{i})",
  "Shell(cmd{i}:run*)",
  "Read(src/mod{i}/**)",
  "Write(gen/{i}/*.ts)",
  "WebFetch(*.host{i}.example.com)",
  "Mcp(server{i}:*)",
];

function storeOf(n: number): CursorStoreView {
  const allow = Array.from({ length: n }, (_, i) => TEMPLATES[i % TEMPLATES.length].replace("{i}", String(i)));
  const deny = Array.from({ length: Math.max(1, n / 10) }, (_, i) => `Shell(danger${i})`);
  const text = JSON.stringify({ permissions: { allow: [...allow, "Shell(git)", "Shell(ls)"], deny } });
  const p = parseCursorConfig(text, "/w/.cursor/cli.json", "workspace");
  return {
    path: "/w/.cursor/cli.json",
    scope: "workspace",
    valid: p.valid,
    strictJson: p.strictJson,
    definesAllow: p.definesAllow,
    rules: p.rules,
  };
}

const CALLS: [string, CursorCall][] = [
  ["shell simple", { tool: "Shell", command: "git status --short" }],
  ["shell compound", { tool: "Shell", command: "git log -5 | ls && tool3 x" }],
  ["read", { tool: "Read", path: "src/mod2/a.ts" }],
  ["write (ask)", { tool: "Write", path: "lib/x.ts" }],
  ["fetch", { tool: "WebFetch", url: "https://a.host4.example.com/x" }],
  ["mcp", { tool: "Mcp", server: "server5", name: "q" }],
];

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

async function main() {
  const shell = await loadShellParser();
  console.log("tokens  call             p50 µs   p99 µs   decisions/s");
  for (const n of [10, 100, 1000]) {
    const ctx = { workspaceRoot: "/w", home: "/home/u", stores: [storeOf(n)], shell };
    for (const [name, call] of CALLS) {
      for (let k = 0; k < 200; k++) decideCursor(call, ctx);
      const times: number[] = [];
      for (let k = 0; k < 2000; k++) {
        const t = performance.now();
        decideCursor(call, ctx);
        times.push((performance.now() - t) * 1000);
      }
      times.sort((a, b) => a - b);
      const mean = times.reduce((a, b) => a + b, 0) / times.length;
      console.log(
        `${String(n).padStart(6)}  ${name.padEnd(15)} ${pct(times, 50).toFixed(1).padStart(8)} ${pct(times, 99).toFixed(1).padStart(8)} ${Math.round(
          1e6 / mean,
        )
          .toString()
          .padStart(12)}`,
      );
    }
  }
}
void main();
