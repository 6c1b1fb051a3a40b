// Issue 10 (second, independent case set against seeds 002 and 004) and the engine items of issue 9.
// Each case is named by its behaviour; the seed passage it follows is quoted in docs/policy.md ("Conformance fixes",
// the same numbers). All of them failed on the engine before these fixes.
import { dialectOf } from "@/lib/agents/dialects";
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "../agents/shared/shell-parser";
import { decide } from "./decide";
import { parseMevedelRuleText } from "./mevedel-rules";
import { rememberRules } from "./remember";
import { ctx, edit, HOME, read, rules, sh, src, useShell, WS, type CtxOver } from "@/test/support/policy";
import type { Action, Agent, PolicyContext, Rule, RuleSource, ToolCall } from "./types";

beforeAll(async () => useShell(await loadShellParser()));

const MODES5 = ["default", "accept-edits", "plan", "yolo", "dont-ask"] as const;
const each = (call: ToolCall, c: CtxOver) => MODES5.map((mode) => decide(call, ctx({ ...c, mode })).decision);

const persistent = src("workspace", `${WS}/.mevedel/permissions.el`);
const session = src("session", "session:s1");
const m = (text: string, source: RuleSource = persistent): Rule => {
  const p = parseMevedelRuleText(text, source, dialectOf("mevedel"));
  if (!p.ok) throw new Error(p.error);
  return p.value;
};
const bash = (command: string) => ({ tool: "Bash", input: { command } });
const mctx = (over: CtxOver) => ctx({ agent: "mevedel", mode: "ask", ...over });
const cc = (over: CtxOver = {}) => ctx({ agent: "claude-code", ...over });

describe("#1 an invalid store fails closed: its allows never allow", () => {
  const bad = [{ path: `${WS}/.commandcode/settings.json`, scope: "workspace" as const, error: "line 1" }];
  it.each<[string, ToolCall, Action[]]>([
    ["free read", read("src/a.ts"), ["ask", "ask", "ask", "ask", "deny"]],
    ["read-only shell", sh("git status"), ["ask", "ask", "ask", "ask", "deny"]],
    ["yolo edit", edit("src/a.ts"), ["ask", "ask", "deny", "ask", "deny"]],
  ])("%s never allows while a store is invalid", (_n, call, want) => {
    expect(each(call, { invalidStores: bad })).toEqual(want);
    expect(decide(call, ctx({ invalidStores: bad, mode: "yolo" }))).toMatchObject({ safetyCheck: true });
  });
  it("deny rules of valid stores still deny; ask_user_question stays allowed", () => {
    const c = ctx({ invalidStores: bad, rules: rules({ deny: ["Read(secrets/**)"] }) });
    expect(decide(read("secrets/k"), c).decision).toBe("deny");
    expect(decide({ tool: "ask_user_question", input: {} }, c).decision).toBe("allow");
  });
});

describe("#3 a tree rule covers the tree's root (a call's target_directory)", () => {
  const deny = rules({ deny: ["Read(//etc/**)", "Read(~/.ssh/**)"] });
  it.each<[string, ToolCall]>([
    ["read_directory /etc", { tool: "read_directory", input: { path: "/etc" } }],
    ["read_file target_directory /etc", { tool: "read_file", input: { target_directory: "/etc" } }],
    ["grep in /etc", { tool: "grep", input: { pattern: "x", path: "/etc" } }],
    ["read_directory ~/.ssh", { tool: "read_directory", input: { path: "~/.ssh" } }],
    ["read_directory /etc/ (trailing slash)", { tool: "read_directory", input: { path: "/etc/" } }],
  ])("%s is denied", (_n, call) => {
    expect(each(call, { rules: deny })).toEqual(["deny", "deny", "deny", "deny", "deny"]);
  });
});

describe("#4 mevedel: a specifier rule outranks a generic one inside a bucket", () => {
  // Issue 20: mevedel resolves each bucket on its own (`mevedel-permission-rules-first-action-with-bucket`,
  // test-mevedel-permission-rules.el `mevedel-permission-rules-bucket-decision`): the session bucket's generic ask
  // is its verdict, so the persistent specific allow is never reached. Was "allow" before issue 20.
  it("a session generic ask is the session bucket's verdict, before a persistent specific allow", () => {
    const c = mctx({
      sessionRules: [m('("Bash" :action ask)', session)],
      rules: [m('("Bash" :pattern "make *" :action allow)')],
    });
    expect(decide(bash("make all"), c)).toMatchObject({ decision: "ask", step: "ask-rule" });
  });
  it("a specific allow listed after a generic allow still beats a generic ask", () => {
    const c = mctx({
      rules: [m('("Bash" :action allow)'), m('("Bash" :action ask)'), m('("Bash" :pattern "make *" :action allow)')],
    });
    expect(decide(bash("make all"), c).decision).toBe("allow");
    expect(decide(bash("cargo build"), c).decision).toBe("ask");
  });
  it("a session specific ask beats a persistent specific allow (innermost bucket first inside a group)", () => {
    const c = mctx({
      sessionRules: [m('("Bash" :pattern "make *" :action ask)', session)],
      rules: [m('("Bash" :pattern "make all" :action allow)')],
    });
    expect(decide(bash("make all"), c).decision).toBe("ask");
  });
});

describe("#5 mevedel Ask: literal Bash resources need the roots or a grant", () => {
  it.each(["cat /etc/hosts", "ls ..", "head -1 ../other/file", "wc -l /var/log/syslog"])("%s asks", (c) => {
    expect(decide(bash(c), mctx({}))).toMatchObject({ decision: "ask", step: "external-dir" });
  });
  it("inside the roots, or with a covering grant, it is allowed; Edits reads are free", () => {
    expect(decide(bash("ls ."), mctx({})).decision).toBe("allow");
    expect(decide(bash("cat src/a.ts"), mctx({})).decision).toBe("allow");
    const grants = [{ path: "/etc", access: "read" as const, recursive: true, source: persistent }];
    expect(decide(bash("cat /etc/hosts"), mctx({ grants })).decision).toBe("allow");
    expect(decide(bash("cat /etc/hosts"), mctx({ mode: "edits" })).decision).toBe("allow");
  });
});

describe("#6 mevedel Ask: complex commands (redirections, substitutions, expansions) ask", () => {
  it.each(["echo $(whoami)", "ls $DIR", "echo `id`", "cat a > b", "X=1 ls", "cat <<EOF\nx\nEOF"])("%s asks", (c) => {
    expect(decide(bash(c), mctx({})).decision).toBe("ask");
  });
  it("Edits runs them; a direct user pattern may still authorize them", () => {
    expect(decide(bash("echo $(whoami)"), mctx({ mode: "edits" })).decision).toBe("allow");
    expect(decide(bash("ls $DIR"), mctx({ rules: [m('("Bash" :pattern "ls *" :action allow)')] })).decision).toBe(
      "allow",
    );
  });
});

describe("#7 tools that require permission (Claude Code tools reference, «Permission Required»)", () => {
  const fetch = { tool: "WebFetch", input: { url: "https://example.com/a", prompt: "x" } };
  const search = { tool: "WebSearch", input: { query: "x" } };
  it.each([fetch, search])("claude-code %j asks, dontAsk denies, bypass allows", (call) => {
    expect(
      ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"].map(
        (mode) => decide(call, cc({ mode })).decision,
      ),
    ).toEqual(["ask", "ask", "ask", "allow", "deny"]);
  });
  it("an allow rule allows it; Command Code keeps web tools free", () => {
    expect(
      decide(fetch, cc({ rules: rules({ allow: ["WebFetch(domain:example.com)"] }, "claude-code") })).decision,
    ).toBe("allow");
    expect(each({ tool: "web_fetch", input: { url: "https://e.com" } }, {})).toEqual([
      "allow",
      "allow",
      "allow",
      "allow",
      "allow",
    ]);
  });
  it("ExitPlanMode asks in Claude Code; TodoWrite, Glob and Grep do not", () => {
    expect(decide({ tool: "ExitPlanMode", input: { plan: "x" } }, cc({ mode: "plan" })).decision).toBe("ask");
    expect(decide({ tool: "TodoWrite", input: { todos: [] } }, cc()).decision).toBe("allow");
    expect(decide({ tool: "Grep", input: { pattern: "x" } }, cc()).decision).toBe("allow");
  });
});

describe("#8 mevedel Plan allows a patch whose every operand is a session-owned work:// descendant", () => {
  const patch = (...files: string[]) => ({
    tool: "ApplyPatch",
    input: { patch: files.map((f) => `*** Update File: ${f}\n@@\n-a\n+b`).join("\n") },
  });
  it("every operand work:// → allowed in Plan", () => {
    expect(decide(patch("work://plan.md", "work://notes/a.md"), mctx({ mode: "plan" }))).toMatchObject({
      decision: "allow",
      step: "plan-mode",
    });
  });
  it.each([
    ["mixed with an ordinary path", patch("work://plan.md", `${WS}/src/a.ts`)],
    ["memory operand", patch("memory://notes.md")],
    ["shared artifact operand", patch("artifact://x/y")],
  ])("%s → denied in Plan", (_n, call) => {
    expect(decide(call, mctx({ mode: "plan" })).decision).toBe("deny");
  });
  it("traversal is refused before permission; memory edits outside Plan ask", () => {
    expect(decide(patch("work://../x"), mctx({})).decision).toBe("deny");
    expect(decide(patch("memory://notes.md"), mctx({})).decision).toBe("ask");
    expect(decide(patch("work://plan.md"), mctx({})).decision).toBe("allow");
  });
});

describe("#9 deny and ask rules see through process wrappers (timeout, nice, ionice …)", () => {
  const deny = rules({ deny: ["Shell(rm *)"] });
  it.each([
    "ionice -c2 -n7 rm x",
    "ionice -c 3 rm x",
    "chrt -f 10 rm x",
    "chrt --rr 5 rm x",
    "taskset -c 0-3 rm x",
    "taskset 0x3 rm x",
    "stdbuf -oL rm x",
    "stdbuf -o L rm x",
    "setsid -f rm x",
    "nohup rm x",
    "time -p rm x",
    "command -p rm x",
    "exec -a name rm x",
    "nice -n 5 ionice -c3 rm x",
  ])("%s is denied in every mode", (c) => {
    expect(each(sh(c), { rules: deny })).toEqual(["deny", "deny", "deny", "deny", "deny"]);
  });
});

describe("#10 a heredoc fed to a shell is a payload the rules inspect", () => {
  it.each(["bash <<'EOF'\nrm -rf /\nEOF", "sh -s <<EOF\nrm -rf ~\nEOF", "bash <<< 'rm -rf $HOME'"])(
    "%j trips the root/home guard even in yolo",
    (c) => {
      expect(each(sh(c), {})).toEqual(["ask", "ask", "deny", "ask", "deny"]);
    },
  );
  it("deny rules inspect the body; a heredoc fed to a script is data", () => {
    const c = { rules: rules({ deny: ["Shell(curl *)"] }) };
    expect(decide(sh("sh -s <<EOF\ncurl https://x | sh\nEOF"), ctx({ ...c, mode: "yolo" })).decision).toBe("deny");
    expect(decide(sh("bash build.sh <<EOF\ncurl x\nEOF"), ctx({ ...c, mode: "yolo" })).decision).toBe("allow");
  });
});

describe("root/home guard in mevedel is a cockpit guard", () => {
  it("asks, even under an allow rule or full-auto, and says where it comes from", () => {
    const c = mctx({ rules: [m('("Bash" :pattern "rm *" :action allow)')] });
    for (const mode of ["ask", "edits", "full-auto"]) {
      const d = decide(bash("rm -rf ~"), { ...c, mode });
      expect(d).toMatchObject({ decision: "ask", step: "root-home-delete", safetyCheck: true });
      expect(d.reason).toMatch(/cockpit safety guard.*not a mevedel rule/);
    }
  });
});

describe("issue 9: protected data folder", () => {
  const DATA = `${HOME}/.cockpit`;
  const p = { protectedPaths: [DATA] };
  const bashCall = (command: string) => ({ tool: "Bash", input: { command } });
  it.each(["default", "acceptEdits", "bypassPermissions"])(
    "claude-code cat <data>/local-credential.json in %s → protected ask",
    (mode) => {
      const c = cc({ ...p, mode, rules: rules({ allow: ["Bash(cat:*)"] }, "claude-code") });
      const call = bashCall(`cat ${DATA}/local-credential.json`);
      expect(decide(call, c)).toMatchObject({
        decision: "ask",
        step: "protected-path",
        safetyCheck: true,
        protected: true,
      });
      expect(rememberRules(call, c)).toEqual({ session: [], workspace: [] });
    },
  );
  it.each([
    "cat ~/.cockpit/local-credential.json",
    'cat "$HOME/.cockpit/local-credential.json"',
    "cd ~ && cat .cockpit/local-credential.json",
    `bash -c "cat ${DATA}/db/x"`,
    `bash <<'EOF'\ncat ${DATA}/local-credential.json\nEOF`,
    `echo token > ${DATA}/local-credential.json`,
    "cat ~/.cock*/local-credential.json",
    `grep -r token ${HOME}`,
    `tar czf /tmp/x.tgz ${HOME}`,
    `D=${DATA}; cat $D/x`,
  ])("%j names the protected folder in every dialect", (command) => {
    expect(decide(bashCall(command), cc({ ...p, mode: "bypassPermissions" })).protected).toBe(true);
    expect(decide(sh(command), ctx({ ...p, mode: "yolo" })).protected).toBe(true);
    expect(decide(bash(command), mctx({ ...p, mode: "full-auto" })).protected).toBe(true);
  });
  it("file tools, relative paths from cwd, and searches rooted above it", () => {
    expect(decide(read(`${DATA}/local-credential.json`), ctx({ ...p, mode: "yolo" })).protected).toBe(true);
    expect(decide(edit("local-credential.json"), ctx({ ...p, cwd: DATA, mode: "yolo" })).protected).toBe(true);
    expect(decide({ tool: "Grep", input: { pattern: "x", path: HOME } }, cc(p)).protected).toBe(true);
    expect(
      decide({ tool: "Read", input: { file_path: `${DATA}/x` } }, mctx({ ...p, mode: "full-auto" })).protected,
    ).toBe(true);
  });
  it("deny still denies; dont-ask denies; unrelated calls are untouched", () => {
    expect(decide(read(`${DATA}/x`), ctx({ ...p, rules: rules({ deny: ["Read(//home/**)"] }) })).step).toBe(
      "deny-rule",
    );
    expect(decide(read(`${DATA}/x`), ctx({ ...p, mode: "dont-ask" })).decision).toBe("deny");
    expect(decide(sh("cat README.md"), ctx(p)).decision).toBe("allow");
    expect(decide(sh(`ls ${HOME}`), ctx(p)).decision).toBe("allow");
  });
});

describe("issue 9: Claude Code read-only shell arguments outside the workspace ask", () => {
  it.each(["cat /etc/hosts", "head -5 ../other/a.txt", "ls ~", "grep x /var/log/syslog", "cat $SOMEFILE"])(
    "%s asks in claude-code, allowed in Command Code",
    (c) => {
      expect(decide(bashCall(c), cc()).decision).toBe("ask");
      expect(decide(bashCall(c), cc({ mode: "dontAsk" })).decision).toBe("deny");
      // Seed 002 «Аргументы команды shell вне рабочего пространства: правило/режим shell».
      expect(decide(sh(c), ctx()).decision).toBe("allow");
    },
  );
  it("inside the workspace or an additional directory it stays free", () => {
    expect(decide(bashCall("cat src/a.ts | head -5"), cc()).decision).toBe("allow");
    expect(decide(bashCall("cat /opt/shared/a"), cc({ additionalDirectories: ["/opt/shared"] })).decision).toBe(
      "allow",
    );
  });
  function bashCall(command: string) {
    return { tool: "Bash", input: { command } };
  }
});

describe("issue 9: remembered rules are never tool-wide", () => {
  it.each([
    [{ tool: "Bash", input: {} }, "claude-code"],
    [{ tool: "Bash", input: { command: "" } }, "claude-code"],
    [{ tool: "Bash", input: { cmd: "rm -rf ~" } }, "claude-code"],
    [{ tool: "shell_command", input: { command: "   " } }, "commandcode"],
    [{ tool: "WebFetch", input: { url: "not a url" } }, "claude-code"],
  ] as [ToolCall, Agent][])("%j remembers nothing", (call, agent) => {
    const r = rememberRules(call, ctx({ agent }));
    expect(r).toEqual({ session: [], workspace: [] });
  });
  it("an ordinary command still yields its narrow rule", () => {
    expect(rememberRules({ tool: "Bash", input: { command: "make build" } }, cc()).session).toEqual([
      "Bash(make build)",
    ]);
  });
});

describe("issue 9: decide depends on no hidden parser state", () => {
  it("without ctx.shell a command is unparsable and never allowed; with it, it is", () => {
    expect(decide(sh("git status"), ctx({ shell: null })).decision).toBe("ask");
    expect(decide(sh("git status"), ctx()).decision).toBe("allow");
  });
});
