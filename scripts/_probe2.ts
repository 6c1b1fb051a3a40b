import { loadShellParser } from "@/lib/policy-runtime/shell-parser";
import { decide } from "@/lib/policy/decide";
const shell = await loadShellParser();
const ctx: any = { agent: "claude-code", mode: process.argv[3] ?? "default", workspaceRoot: "/w", cwd: "/w", home: "/home/u", rules: [], shell, planDir: "/home/u/.claude/plans" };
const d = decide({ tool: "Bash", input: { command: process.argv[2] } }, ctx);
console.log(d.decision, d.step, d.reason); console.log(d.trace.map(t=>`${t.step}:${t.outcome}:${t.why}`).join("\n"));
