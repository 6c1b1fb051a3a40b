import { describe, expect, it } from "vitest";
import type { Action, Agent } from "@/lib/policy";
import { lintWorkspace, reachesThreshold, removableIds } from "./lint";
import { summarize } from "./summary";
import { HOME, item, WS, type Where } from "@/test/support/hygiene";
import type { FindingKind, LintItem } from "./types";

type Row = [id: string, where: Where, action: Action, text: string];
interface Case {
  name: string;
  agent: Agent;
  rows: Row[];
  /** `kind entry [by]` that must be found. */
  found?: string[];
  /** `kind entry` that must not be found. */
  absent?: string[];
}

const CASES: Case[] = [
  // duplicate
  {
    name: "same rule twice in one file",
    agent: "commandcode",
    rows: [
      ["a", "workspace", "allow", "Shell(git status:*)"],
      ["b", "workspace", "allow", "Shell(git status:*)"],
    ],
    found: ["duplicate b a"],
    absent: ["duplicate a"],
  },
  {
    name: "local copy of a project rule",
    agent: "claude-code",
    rows: [
      ["a", "workspace", "allow", "Bash(npm run test:*)"],
      ["b", "local", "allow", "Bash(npm run test:*)"],
    ],
    found: ["duplicate b a"],
    absent: ["duplicate a"],
  },
  {
    name: "Bash alias equals Shell",
    agent: "commandcode",
    rows: [
      ["a", "global", "deny", "Shell(rm *)"],
      ["b", "local", "deny", "Bash(rm *)"],
    ],
    found: ["duplicate b a"],
  },
  {
    name: "project and global copies are both kept",
    agent: "claude-code",
    rows: [
      ["a", "workspace", "allow", "Bash(git log *)"],
      ["b", "global", "allow", "Bash(git log *)"],
    ],
    absent: ["duplicate a", "duplicate b"],
  },
  {
    name: "claude /x anchors differ between files",
    agent: "claude-code",
    rows: [
      ["a", "local", "allow", "Edit(/src/**)"],
      ["b", "global", "allow", "Edit(/src/**)"],
    ],
    absent: ["duplicate a", "covered a"],
  },
  {
    name: "mevedel duplicate plist rule",
    agent: "mevedel",
    rows: [
      ["a", "workspace", "allow", '("Bash" :pattern "git log*" :action allow)'],
      ["b", "workspace", "allow", '("Bash" :pattern "git log*" :action allow)'],
    ],
    found: ["duplicate b a"],
  },
  {
    name: "mevedel session copy of a persistent allow is not a duplicate",
    agent: "mevedel",
    rows: [
      ["a", "workspace", "allow", '("Bash" :pattern "make *" :action allow)'],
      ["b", "session", "allow", '("Bash" :pattern "make *" :action allow)'],
    ],
    absent: ["duplicate b", "duplicate a"],
  },
  {
    name: "mevedel duplicate grant",
    agent: "mevedel",
    rows: [
      ["a", "global", "allow", '(:path "~/.npm" :access write :recursive t)'],
      ["b", "global", "allow", '(:path "~/.npm" :access write :recursive t)'],
    ],
    found: ["duplicate b a"],
  },
  // covered
  {
    name: "seed 002: git status:* under git:*",
    agent: "commandcode",
    rows: [
      ["a", "workspace", "allow", "Shell(git:*)"],
      ["b", "local", "allow", "Shell(git status:*)"],
    ],
    found: ["covered b a"],
    absent: ["covered a"],
  },
  {
    name: "seed 002: Write(src/generated/**) under Edit(src/**)",
    agent: "commandcode",
    rows: [
      ["a", "workspace", "allow", "Edit(src/**)"],
      ["b", "workspace", "allow", "Write(src/generated/**)"],
    ],
    found: ["covered b a"],
  },
  {
    name: "mcp tool under its server glob",
    agent: "commandcode",
    rows: [
      ["a", "workspace", "allow", "mcp__github__*"],
      ["b", "workspace", "allow", "mcp__github__get_issue"],
    ],
    found: ["covered b a"],
  },
  {
    name: "claude exact under prefix",
    agent: "claude-code",
    rows: [
      ["a", "global", "allow", "Bash(npm run *)"],
      ["b", "local", "allow", "Bash(npm run build)"],
    ],
    found: ["covered b a"],
  },
  {
    name: "global rule is not removed for a project rule",
    agent: "claude-code",
    rows: [
      ["a", "workspace", "allow", "Bash(npm run *)"],
      ["b", "global", "allow", "Bash(npm run build)"],
    ],
    absent: ["covered b"],
  },
  {
    name: "an over-broad Bash covers nothing (it is the one to remove)",
    agent: "claude-code",
    rows: [
      ["a", "local", "allow", "Bash"],
      ["b", "local", "allow", "Bash(git status)"],
    ],
    found: ["over-broad a"],
    absent: ["covered b"],
  },
  {
    name: "bare Edit does not stand in for a path allow (outside-path pre-approval)",
    agent: "commandcode",
    rows: [
      ["a", "workspace", "allow", "Edit"],
      ["b", "workspace", "allow", "Edit(//etc/hosts)"],
    ],
    absent: ["covered b"],
  },
  {
    name: "an allow naming a sensitive file is kept",
    agent: "commandcode",
    rows: [
      ["a", "workspace", "allow", "Edit(config/**)"],
      ["b", "workspace", "allow", "Edit(config/.env)"],
    ],
    absent: ["covered b"],
  },
  {
    name: "mevedel covered in the same bucket",
    agent: "mevedel",
    rows: [
      ["a", "workspace", "allow", '("Bash" :pattern "git *" :action allow)'],
      ["b", "global", "allow", '("Bash" :pattern "git log *" :action allow)'],
    ],
    absent: ["covered b"],
  },
  {
    name: "mevedel covered, same file",
    agent: "mevedel",
    rows: [
      ["a", "workspace", "allow", '("Bash" :pattern "git *" :action allow)'],
      ["b", "workspace", "allow", '("Bash" :pattern "git log *" :action allow)'],
    ],
    found: ["covered b a"],
  },
  {
    name: "mevedel generic allow does not cover a specifier allow",
    agent: "mevedel",
    rows: [
      ["a", "workspace", "allow", '("Bash" :action allow)'],
      ["b", "workspace", "allow", '("Bash" :pattern "git log *" :action allow)'],
    ],
    absent: ["covered b"],
  },
  {
    name: "mevedel grant under a recursive grant",
    agent: "mevedel",
    rows: [
      ["a", "workspace", "allow", '(:path "/data" :access write :recursive t)'],
      ["b", "workspace", "allow", '(:path "/data/x" :access read)'],
    ],
    found: ["covered b a"],
  },
  // shadowed
  {
    name: "seed 002: allow under a broad ask",
    agent: "commandcode",
    rows: [
      ["a", "global", "ask", "Shell(git:*)"],
      ["b", "workspace", "allow", "Shell(git status:*)"],
    ],
    found: ["shadowed b a"],
  },
  {
    name: "claude allow under a deny",
    agent: "claude-code",
    rows: [
      ["a", "global", "deny", "Bash(git push:*)"],
      ["b", "local", "allow", "Bash(git push origin main)"],
    ],
    found: ["shadowed b a"],
  },
  {
    name: "ask made moot by a deny",
    agent: "commandcode",
    rows: [
      ["a", "workspace", "deny", "Shell(git push --force*)"],
      ["b", "workspace", "ask", "Shell(git push --force-with-lease)"],
    ],
    found: ["shadowed b a"],
  },
  {
    name: "seed 004: mevedel deny is absolute",
    agent: "mevedel",
    rows: [
      ["a", "global", "deny", '("Bash" :pattern "rm *" :action deny)'],
      ["b", "session", "allow", '("Bash" :pattern "rm -rf dist" :action allow)'],
    ],
    found: ["shadowed b a"],
  },
  {
    name: "mevedel session ask shadows a persistent allow",
    agent: "mevedel",
    rows: [
      ["a", "session", "ask", '("Bash" :pattern "git *" :action ask)'],
      ["b", "workspace", "allow", '("Bash" :pattern "git log *" :action allow)'],
    ],
    found: ["shadowed b a"],
  },
  // conflicting
  {
    name: "global deny carves out of a project allow",
    agent: "claude-code",
    rows: [
      ["a", "workspace", "allow", "Bash(git:*)"],
      ["b", "global", "deny", "Bash(git push:*)"],
    ],
    found: ["conflicting a b"],
    absent: ["shadowed a"],
  },
  {
    name: "mevedel session allow beats a persistent ask",
    agent: "mevedel",
    rows: [
      ["a", "workspace", "ask", '("Bash" :pattern "git *" :action ask)'],
      ["b", "session", "allow", '("Bash" :pattern "git log *" :action allow)'],
    ],
    found: ["conflicting b a"],
    absent: ["shadowed b"],
  },
  {
    name: "same-file carve-out is not a conflict",
    agent: "commandcode",
    rows: [
      ["a", "workspace", "allow", "Shell(git:*)"],
      ["b", "workspace", "deny", "Shell(git push:*)"],
    ],
    absent: ["conflicting a"],
  },
  // ineffective
  {
    name: "allow parameter rule",
    agent: "commandcode",
    rows: [["a", "workspace", "allow", "Shell(run_in_background:true)"]],
    found: ["ineffective a"],
  },
  {
    name: "MCP glob in allow",
    agent: "claude-code",
    rows: [["a", "workspace", "allow", "mcp__*"]],
    found: ["ineffective a"],
  },
  {
    name: "Claude Code ignores Write(path)",
    agent: "claude-code",
    rows: [["a", "workspace", "allow", "Write(src/**)"]],
    found: ["ineffective a"],
  },
  {
    name: "Command Code consults Write(path)",
    agent: "commandcode",
    rows: [["a", "workspace", "allow", "Write(src/**)"]],
    absent: ["ineffective a"],
  },
  {
    name: "always-allowed tool",
    agent: "commandcode",
    rows: [["a", "workspace", "allow", "AskUserQuestion"]],
    found: ["ineffective a"],
  },
  {
    name: "claude Agent deny is consulted",
    agent: "claude-code",
    rows: [["a", "workspace", "deny", "Agent(Explore)"]],
    absent: ["ineffective a"],
  },
  {
    name: "mid-pattern :*",
    agent: "claude-code",
    rows: [["a", "workspace", "allow", "Bash(git:* --force)"]],
    found: ["ineffective a"],
  },
  {
    name: "malformed pattern",
    agent: "commandcode",
    rows: [["a", "workspace", "allow", "WebFetch(example.com)"]],
    found: ["ineffective a"],
  },
  {
    name: "mevedel malformed profile",
    agent: "mevedel",
    rows: [["a", "workspace", "deny", '("Read" :path "/x" :network t :action deny)']],
    found: ["ineffective a"],
  },
  // over-broad
  ...(
    [
      "Bash(*)",
      "Bash",
      "Bash(python:*)",
      "Bash(node:*)",
      "Bash(sh -c:*)",
      "Bash(npx:*)",
      "Bash(npm:*)",
      "Edit(~/**)",
      "Edit(//**)",
    ] as const
  ).map((t): Case => ({
    name: `claude ${t}`,
    agent: "claude-code",
    rows: [["a", "local", "allow", t]],
    found: ["over-broad a"],
  })),
  {
    name: "Shell(bash:*)",
    agent: "commandcode",
    rows: [["a", "workspace", "allow", "Shell(bash:*)"]],
    found: ["over-broad a"],
  },
  {
    name: "Command Code prefix python",
    agent: "commandcode",
    rows: [["a", "workspace", "allow", "Shell(python)"]],
    found: ["over-broad a"],
  },
  ...(["Bash(bash)", "Bash(sh)", "Bash(python3)", "Bash(xargs)", "Bash(bash -s -- --yes)"] as const).map((t): Case => ({
    name: `claude ${t}: runs whatever is piped into it`,
    agent: "claude-code",
    rows: [["a", "local", "allow", t]],
    found: ["over-broad a"],
  })),
  {
    name: "claude exact python script is fine",
    agent: "claude-code",
    rows: [["a", "workspace", "allow", "Bash(python scripts/gen.py)"]],
    absent: ["over-broad a"],
  },
  {
    name: "npm run is project-defined",
    agent: "claude-code",
    rows: [["a", "workspace", "allow", "Bash(npm run:*)"]],
    absent: ["over-broad a"],
  },
  {
    name: "Edit(**) stays in the workspace",
    agent: "claude-code",
    rows: [["a", "workspace", "allow", "Edit(**)"]],
    absent: ["over-broad a"],
  },
  {
    name: "over-broad deny is fine",
    agent: "claude-code",
    rows: [["a", "workspace", "deny", "Bash(python:*)"]],
    absent: ["over-broad a"],
  },
  {
    name: "mevedel recursive write on ~",
    agent: "mevedel",
    rows: [["a", "global", "allow", '(:path "~" :access write :recursive t)']],
    found: ["over-broad a"],
  },
  {
    name: "mevedel recursive write on ~/.npm is fine",
    agent: "mevedel",
    rows: [["a", "global", "allow", '(:path "~/.npm" :access write :recursive t)']],
    absent: ["over-broad a"],
  },
  {
    name: "mevedel Bash pattern *",
    agent: "mevedel",
    rows: [["a", "workspace", "allow", '("Bash" :pattern "*" :action allow)']],
    found: ["over-broad a"],
  },
  {
    name: "mevedel profile writing home",
    agent: "mevedel",
    rows: [
      [
        "a",
        "workspace",
        "allow",
        '("Bash" :pattern "make *" :file-system ((:path "~" :access write :recursive t)) :action allow)',
      ],
    ],
    found: ["over-broad a"],
  },
  // one-off
  {
    name: "heredoc",
    agent: "claude-code",
    rows: [["a", "local", "allow", "Bash(cat > notes.md <<'EOF'\nhello\nEOF)"]],
    found: ["one-off a"],
  },
  {
    name: "commit message",
    agent: "claude-code",
    rows: [["a", "local", "allow", 'Bash(git commit -m "fix the flaky login test")']],
    found: ["one-off a"],
  },
  {
    name: "generated path",
    agent: "commandcode",
    rows: [["a", "local", "allow", "Shell(cp out.txt /tmp/tmp.Xk29sQ/out.txt)"]],
    found: ["one-off a"],
  },
  {
    name: "mevedel long exact command",
    agent: "mevedel",
    rows: [
      [
        "a",
        "session",
        "allow",
        `("Bash" :pattern "curl -s https://example.com/api/v1/items?page=2 -H 'Accept: application/json' -o items-page-2-final.json" :action allow)`,
      ],
    ],
    found: ["one-off a"],
  },
  {
    name: "short exact command is reusable",
    agent: "claude-code",
    rows: [["a", "local", "allow", "Bash(npm run build)"]],
    absent: ["one-off a"],
  },
];

function run(c: Case, extra: Partial<Parameters<typeof lintWorkspace>[0]> = {}) {
  const items: LintItem[] = c.rows.map(([id, where, action, text]) => item(c.agent, where, action, text, id));
  return lintWorkspace({ workspace: WS, home: HOME, items, ...extra });
}

describe("lintWorkspace: one table of cases per finding kind and dialect", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const { findings } = run(c);
    const has = (spec: string) => {
      const [kind, entry, by] = spec.split(" ");
      return findings.some((f) => f.kind === (kind as FindingKind) && f.entry === entry && (!by || f.by === by));
    };
    for (const spec of c.found ?? []) expect(has(spec), `${spec} in ${JSON.stringify(findings, null, 1)}`).toBe(true);
    for (const spec of c.absent ?? []) expect(has(spec), `${spec} in ${JSON.stringify(findings, null, 1)}`).toBe(false);
    for (const f of findings) expect(f.message.length).toBeGreaterThan(10);
  });

  it("explains which rule covers and which wins", () => {
    const c = CASES.find((x) => x.name.startsWith("global deny carves"))!;
    const f = run(c).findings.find((x) => x.kind === "conflicting")!;
    expect(f.message).toContain("git push *");
    expect(f.message).toContain("deny wins");
    expect(f.message).toContain("~/.claude/settings.json");
    const cov = run(CASES.find((x) => x.name.startsWith("seed 002: git status"))!).findings[0];
    expect(cov.message).toContain("covered by Shell(git:*)");
    expect(cov.message).toContain("changes no decision");
  });

  it("severities: over-broad is an error, shadowed allows and ineffective rules warn, clutter is info", () => {
    const sev = (name: string, kind: FindingKind) =>
      run(CASES.find((x) => x.name === name)!).findings.find((f) => f.kind === kind)!.severity;
    expect(sev("claude Bash(*)", "over-broad")).toBe("error");
    expect(sev("seed 002: allow under a broad ask", "shadowed")).toBe("warning");
    expect(sev("ask made moot by a deny", "shadowed")).toBe("info");
    expect(sev("allow parameter rule", "ineffective")).toBe("warning");
    expect(sev("same rule twice in one file", "duplicate")).toBe("info");
  });

  it("dead: honest without usage data, then by last use", () => {
    const rows: Row[] = [
      ["a", "local", "allow", "Bash(make test)"],
      ["b", "local", "allow", "Bash(make lint)"],
      ["c", "local", "deny", "Bash(rm *)"],
    ];
    const c: Case = { name: "dead", agent: "claude-code", rows };
    const none = run(c);
    expect(none.findings.filter((f) => f.kind === "dead")).toEqual([]);
    expect(none.notes.join(" ")).toMatch(/no usage data yet/i);
    const now = "2025-06-30T00:00:00Z";
    const withUsage = run(c, {
      now,
      usage: { a: { lastUsed: "2025-06-29T10:00:00Z", count: 4 }, b: { lastUsed: "2025-04-01T00:00:00Z", count: 1 } },
    });
    const dead = withUsage.findings.filter((f) => f.kind === "dead");
    expect(dead.map((f) => f.entry)).toEqual(["b"]);
    expect(dead[0].message).toContain("last used 2025-04-01");
    expect(withUsage.notes).toEqual([]);
    expect(
      run(c, { now, usage: {}, deadDays: 7 })
        .findings.filter((f) => f.kind === "dead")
        .map((f) => f.entry),
    ).toEqual(["a", "b"]);
  });

  it("threshold, clean-up ids and summary", () => {
    const items = [
      item("claude-code", "local", "allow", "Bash(*)", "x"),
      item("claude-code", "local", "allow", "Bash(git:*)", "g"),
      item("claude-code", "local", "allow", "Bash(git status:*)", "gs"),
      item("claude-code", "local", "allow", "Bash(git status:*)", "gs2"),
    ];
    const { findings } = lintWorkspace({ workspace: WS, home: HOME, items });
    expect(reachesThreshold(findings, "error")).toBe(true);
    expect(
      reachesThreshold(
        findings.filter((f) => f.severity !== "error"),
        "warning",
      ),
    ).toBe(false);
    expect(removableIds(findings).sort()).toEqual(["gs", "gs2"]);
    expect(summarize(4, findings).text).toBe("4 rules: 1 over-broad, 1 duplicate, 1 covered");
  });
});
