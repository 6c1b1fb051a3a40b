import { execFile } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeSandbox, trustClaudeWorkspace, type Sandbox } from "@/test/support/stores";
import type { SessionEntryRow } from "@/lib/stores/session";
import { decideLines, MAX_LINE_CHARS } from "./decide-jsonl";
import { Decider } from "./decide-one";

const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/stores/load-store", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/stores/load-store")>();
  return {
    ...real,
    loadStore: (...args: Parameters<typeof real.loadStore>) => {
      reads.count++;
      return real.loadStore(...args);
    },
  };
});

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("decide-jsonl-");
  // Claude Code applies a workspace's allow rules only once its trust dialog was accepted.
  trustClaudeWorkspace(sb.home, sb.workspace);
  reads.count = 0;
});
afterEach(() => sb.cleanup());

const bash = (command: string) => ({ tool: "Bash", input: { command } });
const line = (o: object) => JSON.stringify(o);

/** Runs decideLines over the given chunks (as a pipe delivers them) and parses every output line. */
async function run(
  chunks: (string | (() => void))[],
  opts: { agent?: "claude-code"; rows?: (id: string) => Promise<SessionEntryRow[]>; explain?: boolean } = {},
) {
  const written: string[] = [];
  const notes: string[] = [];
  async function* input() {
    for (const c of chunks) {
      if (typeof c === "function") c();
      else yield c;
    }
  }
  const decider = new Decider(sb.paths, opts.rows ?? (async () => []));
  const result = await decideLines(input(), {
    decider,
    defaults: { agent: opts.agent },
    explain: Boolean(opts.explain),
    write: async (t) => void written.push(t),
    note: (t) => void notes.push(t),
  });
  const out = written.join("");
  return {
    ...result,
    writes: written.length,
    notes,
    objects: out
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe("decide --jsonl", () => {
  it("prints one decision per line, in order, the objects `decide` prints", async () => {
    sb.write(".claude/settings.json", '{"permissions":{"allow":["Bash(npm run *)"],"deny":["Bash(curl *)"]}}');
    sb.write("~/.claude/settings.json", '{"permissions":{"ask":["Bash(git push *)"]}}');
    const calls = ["npm run build", "curl https://x", "git push origin main", "make"];
    const r = await run([calls.map((c) => line({ agent: "claude-code", call: bash(c) })).join("\n") + "\n"]);
    expect(r).toMatchObject({ lines: 4, failed: 0 });
    expect(r.objects.map((o) => [o.decision, o.step])).toEqual([
      ["allow", "allow-rule"],
      ["deny", "deny-rule"],
      ["ask", "ask-rule"],
      ["ask", "fallback"],
    ]);
    // Exactly the single-call contract's keys and values.
    const single = await new Decider(sb.paths, async () => []).decide({
      agent: "claude-code",
      call: bash("curl https://x"),
    });
    expect(r.objects[1]).toEqual(single.out);
    expect(Object.keys(r.objects[1]!)).toEqual(["decision", "step", "rule", "scope", "store", "reason"]);
  });

  it("answers a bad line with one error object and goes on", async () => {
    const r = await run(
      [
        [
          line({ agent: "claude-code", call: bash("ls") }),
          "{not json",
          "",
          line({ agent: "claude-code", mod: "plan", call: bash("ls") }),
          line({ agent: "vim", call: bash("ls") }),
          line({ agent: "claude-code", mode: "turbo", call: bash("ls") }),
          line({ call: bash("ls") }),
          line({ agent: "claude-code", call: { input: {} } }),
          line({ agent: "claude-code", call: bash("ls") }),
        ].join("\n") + "\n",
      ],
      {},
    );
    expect(r).toMatchObject({ lines: 9, failed: 7 });
    expect(r.objects).toHaveLength(9);
    expect(r.objects[0]).toMatchObject({ decision: "allow", step: "read-only" });
    expect(r.objects.slice(1, 8).map((o) => o.error)).toEqual([
      expect.stringMatching(/^line 2: not valid JSON/),
      "line 3: empty line (expected one JSON object)",
      'line 4: Unrecognized key: "mod"',
      expect.stringMatching(/^line 5: unknown agent "vim"/),
      'line 6: unknown mode "turbo" for claude-code',
      expect.stringMatching(/^line 7: agent is required/),
      expect.stringMatching(/^line 8: call\.tool /),
    ]);
    expect(r.objects[8]).toMatchObject({ decision: "allow" });
  });

  it("joins lines split across chunks, takes CRLF and a last line without newline, refuses an endless line", async () => {
    const whole = line({ agent: "claude-code", call: bash("git status") });
    const huge = "x".repeat(MAX_LINE_CHARS + 10);
    const r = await run([
      whole.slice(0, 10),
      whole.slice(10) + "\r\n" + huge.slice(0, 500_000),
      huge.slice(500_000),
      "\n" + whole,
    ]);
    expect(r.objects.map((o) => o.decision ?? o.error)).toEqual([
      "allow",
      `line 2: longer than ${MAX_LINE_CHARS} characters`,
      "allow",
    ]);
    expect(r.failed).toBe(1);
  });

  it("writes once per input chunk, not once per line", async () => {
    const many = Array.from({ length: 200 }, (_, i) => line({ call: bash(`echo ${i}`) })).join("\n") + "\n";
    const r = await run([many], { agent: "claude-code" });
    expect(r.lines).toBe(200);
    expect(r.writes).toBe(1);
  });

  it("reads the stores once and again only after a file changes", async () => {
    sb.write(".claude/settings.json", '{"permissions":{"allow":["Bash(make *)"]}}');
    const ask = line({ agent: "claude-code", call: bash("make all") });
    const lines = Array.from({ length: 50 }, () => ask).join("\n") + "\n";
    let before = 0;
    const r = await run([
      lines,
      () => {
        before = reads.count;
        sb.write(".claude/settings.json", '{"permissions":{"deny":["Bash(make *)"]}}');
      },
      ask + "\n",
    ]);
    // The first line reads every store of the agent once; 49 more lines read nothing.
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThanOrEqual(6);
    expect(reads.count).toBe(before + 1);
    expect(r.objects.slice(0, 50).every((o) => o.decision === "allow")).toBe(true);
    expect(r.objects[50]).toMatchObject({ decision: "deny", step: "deny-rule" });
  });

  it("takes mode, cwd and session per line; session rules are fetched once per session", async () => {
    const fetched: string[] = [];
    const rows = async (id: string): Promise<SessionEntryRow[]> => {
      fetched.push(id);
      return [
        { id: "r1", agentSessionId: id, agent: "claude-code", action: "allow", rule: "Bash(make *)", createdAt: "" },
      ];
    };
    sb.write("pkg/a.txt", "x");
    const r = await run(
      [
        [
          line({ agent: "claude-code", session: "s1", call: bash("make x") }),
          line({ agent: "claude-code", session: "s1", call: bash("make y") }),
          line({ agent: "claude-code", call: bash("make x") }),
          line({
            agent: "claude-code",
            mode: "plan",
            call: { tool: "Write", input: { file_path: "a.ts", content: "" } },
          }),
          line({ agent: "claude-code", cwd: "pkg", call: { tool: "Read", input: { file_path: "a.txt" } } }),
          line({ agent: "claude-code", cwd: "/", call: { tool: "Read", input: { file_path: "etc/hostname" } } }),
        ].join("\n") + "\n",
      ],
      { rows, explain: true },
    );
    expect(fetched).toEqual(["s1"]);
    expect(r.objects.map((o) => o.decision)).toEqual(["allow", "allow", "ask", "ask", "allow", "ask"]);
    expect(r.objects[0]).toMatchObject({ scope: "session", step: "allow-rule" });
    expect(r.objects[3]).toMatchObject({ step: "plan-mode", mode: "plan" });
    expect(r.objects[4]!.trace).toBeDefined();
    // Relative to the line's cwd: /etc/hostname is outside the workspace.
    expect(r.objects[5]).toMatchObject({ step: "external-dir" });
  });

  // A real process start (tsx compiles the CLI): slow on a busy machine.
  it(
    "works through bin/cockpit.mjs: stdin in, one line out per line, exit 1 when a line failed",
    { timeout: 90_000 },
    async () => {
      sb.write(".claude/settings.json", '{"permissions":{"deny":["Bash(curl *)"]}}');
      const root = path.resolve(import.meta.dirname, "../..");
      const input = [line({ agent: "claude-code", call: bash("curl x") }), "oops", line({ call: bash("ls") })].join(
        "\n",
      );
      const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          [
            path.join(root, "bin/cockpit.mjs"),
            "decide",
            "--jsonl",
            "--workspace",
            sb.workspace,
            "--agent",
            "claude-code",
          ],
          { env: { ...process.env, HOME: sb.home, COCKPIT_MANAGED_SETTINGS: "" } },
          (error, stdout) => resolve({ code: error ? (error.code as number) : 0, stdout }),
        );
        child.stdin!.end(input);
      });
      expect(result.code).toBe(1);
      const out = result.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(out).toEqual([
        expect.objectContaining({ decision: "deny", step: "deny-rule" }),
        { error: expect.stringMatching(/^line 2: not valid JSON/) },
        expect.objectContaining({ decision: "allow", step: "read-only" }),
      ]);
    },
  );
});
