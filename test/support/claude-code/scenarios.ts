import type { ScriptedCall } from "./fake-api";

/** `permissions` of one Claude Code settings file. */
export interface Permissions {
  allow?: string[];
  ask?: string[];
  deny?: string[];
  additionalDirectories?: string[];
  defaultMode?: string;
}

/**
 * One run of the real Claude Code: settings files, mode, workspace trust, the files the calls touch, and the
 * calls the stand-in model makes in order. `{WS}` and `{HOME}` in rules, paths and commands are the scratch
 * workspace and HOME. Every call must be harmless if it runs: shell builtins, harmless real commands on scratch
 * paths, or a command in `SHIMMED` (run.ts), which only prints.
 */
export interface Scenario {
  id: string;
  /** The documented rule this exercises, with its page (empty for generated ones). */
  doc?: string;
  /** Accepted the workspace trust dialog (`~/.claude.json` `projects[ws].hasTrustDialogAccepted`). */
  trusted: boolean;
  /** `--permission-mode` (else `defaultMode` of the settings, else default). */
  mode?: string;
  user?: Permissions;
  project?: Permissions;
  local?: Permissions;
  /** Files created before the run (content "x"): relative to the workspace, or `~/…`. */
  files?: string[];
  /** Symbolic links created before the run: `[link, target]`, same path forms. */
  links?: [string, string][];
  calls: ScriptedCall[];
}

const bash = (command: string, extra: Record<string, unknown> = {}): ScriptedCall => ({
  name: "Bash",
  input: { command, ...extra },
});
const read = (file: string): ScriptedCall => ({ name: "Read", input: { file_path: file } });
const write = (file: string): ScriptedCall => ({ name: "Write", input: { file_path: file, content: "oracle\n" } });
const fetch = (url: string): ScriptedCall => ({ name: "WebFetch", input: { url, prompt: "summarise" } });

/**
 * Cases from Claude Code's documentation (../shared/reference/claude-code-semantics.md, checked against
 * code.claude.com/docs/en/permissions, permission-modes, tools-reference, settings). Each names its passage.
 */
export const DOCUMENTED: Scenario[] = [
  {
    id: "doc-match-all",
    doc: "permissions#match-all-uses-of-a-tool: `Bash(*)` is equivalent to `Bash`",
    trusted: true,
    project: { allow: ["Bash(*)"] },
    calls: [bash("touch t1.txt"), bash("make all")],
  },
  {
    id: "doc-exact",
    doc: "permissions: `Bash(npm run build)` matches the exact command",
    trusted: true,
    project: { allow: ["Bash(npm run build)"] },
    calls: [bash("npm run build"), bash("npm run build --watch"), bash("npm run build:prod")],
  },
  {
    id: "doc-wildcards-anywhere",
    doc: "permissions: wildcards at any position: `Bash(npm run test *)`, `Bash(* install)`, `Bash(git * main)`",
    trusted: true,
    project: { allow: ["Bash(npm run test *)", "Bash(* install)", "Bash(git * main)"] },
    calls: [
      bash("npm run test unit"),
      bash("npm run test"),
      bash("npm install"),
      bash("pip install"),
      bash("npm install left-pad"),
      bash("git checkout main"),
      bash("git push origin main"),
      bash("git merge main-2"),
    ],
  },
  {
    id: "doc-word-boundary",
    doc: "permissions: `Bash(ls *)` enforces a word boundary; `Bash(ls*)` matches both `ls -la` and `lsof`",
    trusted: true,
    project: { allow: ["Bash(make *)", "Bash(cargo*)"] },
    calls: [bash("make all"), bash("make"), bash("makeself x"), bash("cargo build"), bash("cargox run")],
  },
  {
    id: "doc-legacy-colon-star",
    doc: "permissions: `:*` only at the end; `Bash(git:* push)` is literal",
    trusted: true,
    project: { allow: ["Bash(make:*)", "Bash(git:* push)"] },
    calls: [bash("make all"), bash("make"), bash("git push"), bash("git origin push")],
  },
  {
    id: "doc-parameter-rule",
    doc: "permissions: `Bash(run_in_background:true)` … a parameter the model omits is never matched",
    trusted: true,
    project: { deny: ["Bash(run_in_background:true)"] },
    calls: [
      bash("echo bg", { run_in_background: true }),
      bash("echo fg"),
      bash("echo fg2", { run_in_background: false }),
    ],
  },
  {
    id: "doc-tool-name-glob-ask",
    doc: 'permissions: `"*"` in ask matches every tool; an unanchored allow glob is skipped with a warning',
    trusted: true,
    user: { ask: ["*"] },
    project: { allow: ["B*"] },
    calls: [bash("echo hi"), bash("touch t2.txt"), read("{WS}/a.txt")],
    files: ["a.txt"],
  },
  {
    id: "doc-tool-name-glob-allow",
    doc: 'permissions: an unanchored allow glob such as `"*"` or `"B*"` is skipped',
    trusted: true,
    project: { allow: ["*", "B*"] },
    calls: [bash("touch t3.txt"), write("{WS}/w1.txt")],
  },
  {
    id: "doc-webfetch-domains",
    doc: "permissions: WebFetch `domain:` case-insensitive, `*.` any depth not apex, `*` one label elsewhere, trailing dot",
    trusted: true,
    project: {
      allow: ["WebFetch(domain:*.oracle-a.test)", "WebFetch(domain:Oracle-B.test.)", "WebFetch(domain:oracle-c.*)"],
    },
    calls: [
      fetch("https://x.y.oracle-a.test/"),
      fetch("https://oracle-a.test/"),
      fetch("https://oracle-b.test/"),
      fetch("https://oracle-c.org/"),
      fetch("https://oracle-c.evil.test/"),
    ],
  },
  {
    id: "doc-precedence-ask-beats-allow",
    doc: "permissions#manage-permissions: deny, then ask, then allow; a broad ask prompts even when a narrower allow matches",
    trusted: true,
    user: { ask: ["Bash(make *)"] },
    project: { allow: ["Bash(make all)"], deny: ["Bash(make clean)"] },
    calls: [bash("make all"), bash("make clean"), bash("make test")],
  },
  {
    id: "doc-user-deny-blocks-project-allow",
    doc: "permissions#settings-precedence: a user-level deny blocks a project-level allow",
    trusted: true,
    user: { deny: ["Bash(touch *)"] },
    project: { allow: ["Bash(touch *)", "Bash(make *)"] },
    local: { allow: ["Bash(touch t4.txt)"] },
    calls: [bash("touch t4.txt"), bash("make x")],
  },
  {
    id: "doc-untrusted-project",
    doc: "settings: project allow rules and additionalDirectories apply only after the trust dialog; deny and ask always",
    trusted: false,
    project: {
      allow: ["Bash(make *)"],
      ask: ["Bash(echo *)"],
      deny: ["Bash(touch *)"],
      additionalDirectories: ["../extra"],
    },
    local: { allow: ["Bash(cargo *)"] },
    files: ["../extra/e.txt"],
    calls: [bash("make x"), bash("echo hi"), bash("touch t5.txt"), bash("cargo build"), read("{WS}/../extra/e.txt")],
  },
  {
    id: "doc-trusted-additional-dirs",
    doc: "permission-modes: additional directories become readable without prompts; edits follow the mode",
    trusted: true,
    project: { additionalDirectories: ["../extra"] },
    files: ["../extra/e.txt"],
    calls: [read("{WS}/../extra/e.txt"), write("{WS}/../extra/w2.txt"), bash("ls ../extra")],
  },
  {
    id: "doc-read-deny-any-depth",
    doc: "permissions: bare filenames match at any depth (`Read(.env)` ≡ `Read(**/.env)`); a Read deny also blocks Edit/Write",
    trusted: true,
    project: { deny: ["Read(.env)"], allow: ["Edit(**)"] },
    files: [".env", "pkg/.env", "plain.txt"],
    calls: [read("{WS}/.env"), read("{WS}/pkg/.env"), write("{WS}/pkg/.env"), bash("cat .env"), bash("cat plain.txt")],
  },
  {
    id: "doc-anchors-user-settings",
    doc: "permissions: `/path` is relative to the settings source: in user settings `~/.claude/path`",
    trusted: true,
    user: { deny: ["Read(/secrets/**)"] },
    files: ["secrets/s.txt", "~/.claude/secrets/s.txt"],
    calls: [read("{WS}/secrets/s.txt"), read("{HOME}/.claude/secrets/s.txt")],
  },
  {
    id: "doc-anchors-project",
    doc: "permissions: `/path` in project settings is `<project root>/path`; `~/path` from home; `//path` absolute",
    trusted: true,
    project: { deny: ["Read(/notes/**)", "Read(~/hnotes/**)", "Read(//etc/hostname)"] },
    files: ["notes/n.txt", "pkg/notes/n.txt", "~/hnotes/h.txt"],
    calls: [read("{WS}/notes/n.txt"), read("{WS}/pkg/notes/n.txt"), read("{HOME}/hnotes/h.txt"), read("/etc/hostname")],
  },
  {
    id: "doc-single-segment-depth",
    doc: "permissions: allow `Edit(src/**)` matches only <cwd>/src; deny `Read(secrets/**)` matches `secrets` at any depth",
    trusted: true,
    project: { allow: ["Edit(src/**)"], deny: ["Read(secrets/**)"] },
    files: ["src/a.ts", "pkg/secrets/k.txt", "secrets/k.txt"],
    calls: [
      write("{WS}/src/w3.ts"),
      write("{WS}/pkg/src/w4.ts"),
      read("{WS}/pkg/secrets/k.txt"),
      read("{WS}/secrets/k.txt"),
    ],
  },
  {
    id: "doc-edit-allow-grants-read",
    doc: "tools-reference: an `Edit(...)` allow rule also grants read access to the same path",
    trusted: true,
    user: { allow: ["Edit(~/notes/**)"] },
    files: ["~/notes/n.md", "~/other/o.md"],
    calls: [read("{HOME}/notes/n.md"), read("{HOME}/other/o.md")],
  },
  {
    id: "doc-redirections",
    doc: "permissions: an output redirection is a file write; `/dev/null` is not checked; `~` or glob targets need approval",
    trusted: true,
    project: { allow: ["Bash(echo *)", "Edit(out/**)"] },
    files: ["out/keep.txt"],
    calls: [
      bash("echo x > /dev/null"),
      bash("echo x > out/r1.txt"),
      bash("echo x > r2.txt"),
      bash("echo x > ~/r3.txt"),
      bash("echo x > out/*.txt"),
    ],
  },
  {
    id: "doc-compound",
    doc: "permissions: separators `&&`, `||`, `;`, `|`, `|&`, `&`, newline; each subcommand must match on its own",
    trusted: true,
    project: { allow: ["Bash(make *)"], deny: ["Bash(cargo *)"] },
    calls: [
      bash("make a && echo ok"),
      bash("make a && touch t6.txt"),
      bash("make a || make b"),
      bash("make a; make b"),
      bash("make a | cat"),
      bash("make a |& cat"),
      bash("make a & make b"),
      bash("make a\nmake b"),
      bash("echo a; cargo build"),
    ],
  },
  {
    id: "doc-wrappers",
    doc: "permissions: `timeout`, `time`, `nice`, `nohup`, `stdbuf`, `command`, `builtin`, `noglob` and bare `xargs` are stripped",
    trusted: true,
    project: { allow: ["Bash(make *)"] },
    calls: [
      bash("timeout 30 make all"),
      bash("time make all"),
      bash("nice make all"),
      bash("nohup make all"),
      bash("stdbuf -oL make all"),
      bash("command make all"),
      bash("xargs make"),
      bash("xargs -n1 make"),
    ],
  },
  {
    id: "doc-env-assignments",
    doc: "permissions: safe env assignments stripped for allow; any other assignment blocks allow; deny/ask match past any",
    trusted: true,
    project: { allow: ["Bash(make *)"], deny: ["Bash(cargo *)"] },
    calls: [
      bash("NODE_ENV=test make all"),
      bash("FOO=1 make all"),
      bash("FOO=1 cargo build"),
      bash("NODE_ENV=test cargo build"),
    ],
  },
  {
    id: "doc-exec-wrappers",
    doc: "permissions: `watch`, `setsid`, `ionice`, `flock` and `find -exec`/`-delete` are never auto-approved by a prefix rule",
    trusted: true,
    project: { allow: ["Bash(watch *)", "Bash(setsid *)", "Bash(flock *)", "Bash(find *)"] },
    calls: [
      bash("watch make"),
      bash("setsid make"),
      bash("flock /tmp/oracle.lock make"),
      bash("find ./no-such-dir -name x"),
      bash("find ./no-such-dir -delete"),
      bash("find ./no-such-dir -exec touch {} +"),
    ],
  },
  {
    id: "doc-read-only-commands",
    doc: "permissions: read-only commands run without a prompt in every mode; unquoted globs for find/sort/sed/git prompt",
    trusted: true,
    files: ["a.txt", "sub/b.txt"],
    calls: [
      bash("ls"),
      bash("cat a.txt"),
      bash("pwd"),
      bash("head -1 a.txt"),
      bash("wc -l a.txt"),
      bash("git status"),
      bash("git log"),
      bash("cd sub && ls"),
      bash("cd /tmp && git status"),
      bash("ls /etc"),
      bash("git diff *.txt"),
      bash("echo " + "y".repeat(10_050)),
    ],
  },
  {
    id: "doc-accept-edits",
    doc: "permission-modes: acceptEdits runs file edits and mkdir touch rm rmdir mv cp sed inside the working directory",
    trusted: true,
    mode: "acceptEdits",
    files: ["a.txt", "gone.txt", "d1/x"],
    calls: [
      write("{WS}/w5.txt"),
      bash("touch t7.txt"),
      bash("mkdir m1"),
      bash("mv a.txt b.txt"),
      bash("cp b.txt c.txt"),
      bash("rm gone.txt"),
      bash("rm -rf d1"),
      bash("touch ../outside.txt"),
      write("{WS}/.git/w6"),
      write("{WS}/.vscode/w7.json"),
      write("{WS}/sub/.env"),
    ],
  },
  {
    id: "doc-plan-mode",
    doc: "permission-modes: plan: reads and read-only commands; edits stay blocked; other commands prompt",
    trusted: true,
    mode: "plan",
    files: ["a.txt"],
    calls: [read("{WS}/a.txt"), bash("ls"), write("{WS}/w8.txt"), bash("touch t8.txt"), bash("make all")],
  },
  {
    id: "doc-dont-ask",
    doc: "permission-modes: dontAsk: only allow-rule matches and read-only Bash; ask rules deny",
    trusted: true,
    mode: "dontAsk",
    project: { allow: ["Bash(make *)"], ask: ["Bash(cargo *)"] },
    calls: [bash("make all"), bash("cargo build"), bash("touch t9.txt"), bash("ls"), write("{WS}/w9.txt")],
  },
  {
    id: "doc-bypass",
    doc: "permission-modes: bypassPermissions runs everything incl. protected paths; explicit ask rules and critical rm/rmdir still ask",
    trusted: true,
    mode: "bypassPermissions",
    project: { ask: ["Bash(cargo *)"] },
    calls: [bash("touch t10.txt"), write("{WS}/.git/w10"), bash("cargo build"), bash("rmdir /"), bash("make all")],
  },
  {
    id: "doc-critical-paths",
    doc: "permission-modes: rm/rmdir of `/`, top-level folders, home, the working directory and its parents are never approved by a rule",
    trusted: true,
    project: { allow: ["Bash(rm *)", "Bash(rmdir *)"] },
    calls: [
      bash("rmdir /"),
      bash("rmdir /usr"),
      bash("rm -rf ~"),
      bash('rm -rf "$HOME"'),
      bash("rmdir ."),
      bash("rmdir .."),
      bash('rm -rf "$DIR"/*'),
      bash("echo $(rm -rf ~)"),
      bash("rm -rf build"),
    ],
  },
  {
    id: "doc-critical-dont-ask",
    doc: "permission-modes: critical rm/rmdir in dontAsk: deny",
    trusted: true,
    mode: "dontAsk",
    project: { allow: ["Bash(rmdir *)"] },
    calls: [bash("rmdir /"), bash("rmdir build")],
  },
  {
    id: "doc-protected-paths",
    doc: "permission-modes: allow rules never pre-approve writes to protected folders and files",
    trusted: true,
    project: { allow: ["Edit(**)", "Write(**)"] },
    calls: [
      write("{WS}/.git/p1"),
      write("{WS}/.vscode/p2.json"),
      write("{WS}/.idea/p3.xml"),
      write("{WS}/.husky/p4"),
      write("{WS}/.cargo/p5.toml"),
      write("{WS}/.devcontainer/p6.json"),
      write("{WS}/.claude/worktrees/p7.txt"),
      write("{WS}/d2/.gitmodules"),
      write("{WS}/d3/.bashrc"),
      write("{WS}/d4/.npmrc"),
      write("{WS}/d5/.pre-commit-config.yaml"),
      write("{WS}/d6/.env"),
      write("{WS}/src/ok.ts"),
    ],
  },
  {
    id: "doc-protected-dont-ask-bypass",
    doc: "permission-modes: protected-path writes: dontAsk deny",
    trusted: true,
    mode: "dontAsk",
    project: { allow: ["Edit(**)"] },
    calls: [write("{WS}/.git/p8"), write("{WS}/src/ok2.ts")],
  },
  {
    id: "doc-symlinks",
    doc: "permissions: symlinks: allow needs both the link and its target to match; deny applies when either matches",
    trusted: true,
    project: { allow: ["Edit(src/**)"], deny: ["Read(private/**)"] },
    files: ["private/p.txt", "other/o.txt"],
    links: [
      ["src/to-private.txt", "private/p.txt"],
      ["src/to-other.txt", "other/o.txt"],
    ],
    calls: [read("{WS}/src/to-private.txt"), write("{WS}/src/to-other.txt"), read("{WS}/src/to-other.txt")],
  },
  {
    id: "doc-default-mode-setting",
    doc: "settings: `defaultMode` of the highest-precedence file decides the mode",
    trusted: true,
    user: { defaultMode: "dontAsk" },
    local: { defaultMode: "acceptEdits" },
    calls: [write("{WS}/w11.txt"), bash("make all")],
  },
];

/** Rules the generator draws from: every documented form, over the commands and paths of `CALL_POOL`. */
const RULE_POOL = [
  "Bash",
  "Bash(*)",
  "Bash(make *)",
  "Bash(make*)",
  "Bash(make:*)",
  "Bash(make all)",
  "Bash(npm run *)",
  "Bash(npm run test *)",
  "Bash(* install)",
  "Bash(git * main)",
  "Bash(git push *)",
  "Bash(git:* push)",
  "Bash(touch *)",
  "Bash(touch t.txt)",
  "Bash(echo *)",
  "Bash(cat *)",
  "Bash(ls *)",
  "Bash(rm *)",
  "Bash(rm -rf build)",
  "Bash(timeout *)",
  "Bash(find *)",
  "Bash(cargo *)",
  "Bash(run_in_background:true)",
  "Read",
  "Read(.env)",
  "Read(./a.txt)",
  "Read(/notes/**)",
  "Read(notes/**)",
  "Read(~/hnotes/**)",
  "Read(//etc/**)",
  "Read(*.txt)",
  "Edit",
  "Edit(src/**)",
  "Edit(/src/**)",
  "Edit(**)",
  "Edit(*.txt)",
  "Edit(.git/**)",
  "Edit(~/hnotes/**)",
  "WebFetch",
  "WebFetch(domain:oracle-a.test)",
  "WebFetch(domain:*.oracle-a.test)",
  "*",
  "mcp__*",
];

const CALL_POOL: ScriptedCall[] = [
  bash("make all"),
  bash("make"),
  bash("makeself x"),
  bash("npm run test unit"),
  bash("npm run lint"),
  bash("npm install"),
  bash("git checkout main"),
  bash("git push origin main"),
  bash("git status"),
  bash("touch t.txt"),
  bash("touch u.txt"),
  bash("echo hi"),
  bash("echo x > out.txt"),
  bash("cat a.txt"),
  bash("cat .env"),
  bash("ls"),
  bash("ls ~/hnotes"),
  bash("rm -rf build"),
  bash("rm a.txt"),
  bash("rmdir /"),
  bash("timeout 5 make all"),
  bash("FOO=1 make all"),
  bash("NODE_ENV=test make all"),
  bash("find ./no-such-dir -name a.txt"),
  bash("find ./no-such-dir -delete"),
  bash("make a && touch t.txt"),
  bash("echo a; cargo build"),
  bash("cargo build"),
  bash("echo bg", { run_in_background: true }),
  read("{WS}/a.txt"),
  read("{WS}/.env"),
  read("{WS}/notes/n.txt"),
  read("{WS}/pkg/notes/n.txt"),
  read("{HOME}/hnotes/h.txt"),
  read("/etc/hostname"),
  write("{WS}/src/g.ts"),
  write("{WS}/pkg/src/g.ts"),
  write("{WS}/g.txt"),
  write("{WS}/.git/g"),
  write("{HOME}/hnotes/g.md"),
  fetch("https://oracle-a.test/"),
  fetch("https://x.oracle-a.test/"),
];

const GEN_FILES = [".env", "a.txt", "notes/n.txt", "pkg/notes/n.txt", "~/hnotes/h.txt", "src/a.ts", "pkg/src/a.ts"];
const MODES = [undefined, undefined, undefined, "default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"];

/** A small seeded generator (mulberry32): the same seed gives the same scenarios. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` scenarios from one seed: a few rules from the pool in random files and lists, a random mode and
 * trust, and `calls` calls from the pool (writes get a unique file name so each creates a new file).
 */
export function generateScenarios(seed: number, count: number, calls = 8): Scenario[] {
  const next = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const out: Scenario[] = [];
  for (let n = 0; n < count; n++) {
    const files: Record<"user" | "project" | "local", Permissions> = { user: {}, project: {}, local: {} };
    const rules = 1 + Math.floor(next() * 5);
    for (let r = 0; r < rules; r++) {
      const file = pick(["user", "project", "project", "local"] as const);
      const list = pick(["allow", "allow", "ask", "deny"] as const);
      (files[file][list] ??= []).push(pick(RULE_POOL));
    }
    const chosen: ScriptedCall[] = [];
    for (let c = 0; c < calls; c++) {
      const call = pick(CALL_POOL);
      const input = { ...call.input };
      if (call.name === "Write") input.file_path = String(input.file_path).replace(/(\.\w+)?$/, `-${n}-${c}$1`);
      chosen.push({ name: call.name, input });
    }
    out.push({
      id: `gen-${seed}-${n}`,
      trusted: next() < 0.8,
      mode: pick(MODES),
      ...(Object.keys(files.user).length ? { user: files.user } : {}),
      ...(Object.keys(files.project).length ? { project: files.project } : {}),
      ...(Object.keys(files.local).length ? { local: files.local } : {}),
      files: GEN_FILES,
      calls: chosen,
    });
  }
  return out;
}
