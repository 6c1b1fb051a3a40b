// Calls taken from mevedel's own ERT tests (FrauH0lle/mevedel, test/), tried as a mevedel user would: a workspace
// at /w (home /home/u), the rules in the session or persistent store, the mode of the test. Each case cites the
// test file, its `mevedel-deftest` name and the seed 004 line it follows. Used by
// lib/policy/mevedel-agreement.test.ts and bench/mevedel-agreement (agreement before/after, by hand).
import type { Action, Grant, ToolCall } from "@/lib/policy/types";

export interface MevedelCase {
  file: string;
  deftest: string;
  doc: string;
  seed: string;
  mode: "ask" | "edits" | "full-auto" | "plan";
  session?: string[];
  persistent?: string[];
  /** Rules of ~/.mevedel/permissions.el (same persistent bucket, global scope). */
  global?: string[];
  grants?: Grant[];
  /** Symlinks: absolute link path → target. */
  links?: Record<string, string>;
  workspace?: string;
  call: ToolCall;
  expect: Action;
  reason?: RegExp;
}

const BP = "test/test-mevedel-bash-policy.el";
const PR = "test/test-mevedel-permission-rules.el";
const MO = "test/test-mevedel-tool-exec-permission-modes.el";
const EP = "mevedel-tool-exec-permission.el";

const bash = (command: string, extra: Record<string, unknown> = {}): ToolCall => ({
  tool: "Bash",
  input: { command, ...extra },
});

type Row = Omit<MevedelCase, "file" | "deftest" | "call"> & { call: ToolCall | string };
function group(file: string, deftest: string, rows: Row[]): MevedelCase[] {
  return rows.map((r) => ({ ...r, file, deftest, call: typeof r.call === "string" ? bash(r.call) : r.call }));
}
const each = (
  doc: string,
  seed: string,
  mode: MevedelCase["mode"],
  expect: Action,
  commands: string[],
  more: Partial<Row> = {},
): Row[] => commands.map((call) => ({ doc, seed, mode, expect, call, ...more }));

export const MEVEDEL_CASES: MevedelCase[] = [
  ...group(BP, "mevedel-bash-policy-check-permission", [
    ...each("read-only policy", "L243", "ask", "allow", ["pwd && cat file"]),
    ...each("argument-aware read-only policies", "L239", "ask", "allow", [
      "find . -name '*.el'",
      "git status",
      "git --no-pager log -1",
      "git diff -p",
      "git show HEAD",
      "git branch --show-current",
      "rg TODO src",
      "base64 file",
      "sed -n 1,5p file",
      "awk '{print $1}' file",
    ]),
    ...each("argument-aware unsafe or unproven policies", "L239", "ask", "ask", [
      "git diff --output=file",
      "git -c core.pager=cat log",
      "git --paginate log",
      "git branch new-name",
      "git branch -d old",
      "find . -delete",
      "find . -exec printf {} \\;",
      "rg --pre helper TODO",
      "rg --search-zip TODO",
      "base64 -o output file",
      "sed -n 1,5d file",
      `awk '{system("id")}' file`,
      `awk 'BEGIN { f = "sys" "tem"; @f("id") }'`,
      `awk '{print $1 > "out"}' file`,
    ]),
    ...each("unknown policy", "L243", "ask", "ask", ["make test"]),
    ...each("dangerous policy", "L239", "ask", "ask", ["rm file"]),
    ...each("complex policy", "L239", "ask", "ask", ["FOO=bar make test"]),
    ...each("session authority: a direct dangerous allow", "L243", "ask", "allow", ["rm file"], {
      session: ['("Bash" :pattern "rm *" :action allow)'],
    }),
    ...each("segment authority: a direct dangerous segment allow", "L88", "ask", "allow", ["pwd && rm file"], {
      session: ['("Bash" :pattern "rm *" :action allow)'],
    }),
    ...each("segment ask authority stays final", "L88", "ask", "ask", ["pwd && cat file && rm file"], {
      session: ['("Bash" :pattern "rm *" :action allow)', '("Bash" :pattern "cat *" :action ask)'],
    }),
    ...each("persistent authority: a direct complex allow", "L243", "ask", "allow", ["FOO=bar make test"], {
      persistent: ['("Bash" :pattern "FOO=bar make test" :action allow)'],
    }),
    ...each("global authority: configured global rules are direct", "L243", "ask", "allow", ["echo $HOME"], {
      global: ['("Bash" :pattern "echo $HOME" :action allow)'],
    }),
    ...each("generic deny across buckets keeps an outer user deny final", "L64", "ask", "deny", ["make test"], {
      session: ['("Bash" :pattern "make test" :action allow)'],
      persistent: ['("Bash" :action deny)'],
    }),
    ...each("explicit deny stays final in full-auto", "L64", "full-auto", "deny", ["rm file"], {
      session: ['("Bash" :pattern "rm *" :action allow)'],
      persistent: ['("Bash" :pattern "rm *" :action deny)'],
    }),
    ...each(
      "explicit deny in complex syntax, nested chains and disguises",
      "L239",
      "full-auto",
      "deny",
      [
        "echo $(rm file)",
        `echo "$(printf ')' && rm file)"`,
        `echo "$(pwd && rm file && echo x)"`,
        "/bin/rm file",
        "FOO='bar baz' rm file",
      ],
      { persistent: ['("Bash" :pattern "rm *" :action deny)'] },
    ),
    ...each("full-auto bypasses heuristic prompts", "L17", "full-auto", "allow", ["rm file", "echo $HOME"]),
    ...each("protected path", "L33", "ask", "ask", ["cat .git/config"]),
    ...each("protected symlink: the resolved resource is checked", "L33", "ask", "ask", ["cat innocent"], {
      links: { "/w/innocent": "/w/.git/config" },
    }),
    ...each("continued protected path: Bash line continuations", "L33", "ask", "ask", ["cat ~/.ss\\\nh/id_rsa"]),
    ...each("protected path inside substitution", "L33", "ask", "ask", [
      `echo "$(cat .git/config)"`,
      `echo "$(printf ')' && cat .git/config && echo x)"`,
    ]),
    ...each(
      "complex protected path keeps resource checks after a direct allow",
      "L38",
      "ask",
      "ask",
      ["FOO=bar cat ~/.ssh/key"],
      {
        global: ['("Bash" :pattern "FOO=bar cat ~/.ssh/key" :action allow)'],
      },
    ),
    ...each("direct user patterns deliberately authorize dangerous commands", "L243", "ask", "allow", ["rm /tmp/foo"], {
      global: ['("Bash" :pattern "rm *" :action allow)'],
    }),
    ...each("direct user patterns deliberately authorize complex syntax", "L243", "ask", "allow", ["echo $VAR"], {
      global: ['("Bash" :pattern "echo *" :action allow)'],
    }),
    ...each("explicit deny rejects dangerous commands", "L243", "ask", "deny", ["rm /tmp/foo"], {
      global: ['("Bash" :pattern "rm *" :action deny)'],
    }),
    ...each("decision metadata: an Edits rule ask", "L243", "edits", "ask", ["make test"], {
      session: ['("Bash" :pattern "make *" :action ask)'],
    }),
  ]),
  ...group(BP, "mevedel-bash-policy-read-only-p", [
    ...each("safe variants", "L239", "ask", "allow", [
      "diff -u one two",
      "cmp --bytes=10 one two",
      "readlink -f file",
      "realpath --relative-to=. file",
      "du -sh .",
      "uniq",
      "uniq -ci input",
      "uniq -- input -",
      "test -f file",
      "[ 1 = 2 ]",
      "test 1 -eq 2",
    ]),
    ...each("unsafe variants", "L239", "ask", "ask", [
      "diff --output=out one two",
      "du --unknown .",
      "uniq input output",
      "uniq input -c",
      "uniq --unknown",
      "test -v 'x[$(touch marker)]'",
      "test 'x[$(touch marker)]' -eq 1",
      "[ -f file",
    ]),
  ]),
  ...group(BP, "mevedel-bash-policy--uniq-read-only-p", [
    ...each("recognized uniq flags and numeric values", "L239", "ask", "allow", [
      "uniq -cf 2 input",
      "uniq -f2 -s 3 -w4 input",
      "uniq -if+2 input",
      "uniq --skip-fields=2 --skip-chars 0 --check-chars=10 input",
      "uniq --all-repeated=separate input",
      "uniq --group=both input -",
      "uniq -- -named-input -",
    ]),
    ...each("output files, post-input options and malformed or unknown variants fail closed", "L239", "ask", "ask", [
      "uniq -cD input",
      "uniq --group=BOTH input",
      "uniq --cou",
      "uniq -2",
      "uniq -f input",
      "uniq --group -c",
      "uniq --count --all-repeated",
      "uniq -- input -c",
      "uniq input - extra",
      "uniq --output=out",
      "uniq -C input",
    ]),
  ]),
  ...group(BP, "mevedel-bash-policy-uniq-plan-fixture", [
    ...each("Plan allows stdout forms", "L239", "plan", "allow", [
      "uniq input",
      "uniq -c input",
      "uniq input -",
      "uniq -- input -",
    ]),
    ...each("Plan rejects output writes", "L239", "plan", "deny", [
      "uniq input output",
      "uniq -c input output",
      "uniq input -c",
      "uniq -- input -c",
    ]),
  ]),
  ...group(BP, "mevedel-bash-policy-plan-inspection", [
    ...each("inspection families and compositions work in Plan", "L243", "plan", "allow", [
      "diff -u one two",
      "cmp one two",
      "readlink -f file",
      "realpath file",
      "du -sh .",
      "test -f file",
      "[ 1 -eq 2 ]",
      "git status --short && git diff --stat",
      "cat file | head -10 || pwd; ls",
    ]),
    ...each("Plan denies what is not inspection", "L29", "plan", "deny", [
      "cat file >out",
      "git status && touch file",
      "git reset --hard",
      "find . -delete",
      "git diff --ext-diff",
      "unknown-reader file",
    ]),
    ...each(
      "explicit denies still override reading classification",
      "L64",
      "plan",
      "deny",
      ["git status --short && git diff --stat"],
      { session: ['("Bash" :pattern "git diff:*" :action deny)'] },
    ),
  ]),
  ...group(BP, "mevedel-bash-policy-missing-resource-paths", [
    ...each(
      "resources inside the roots need no authority; /dev/null needs none",
      "L247",
      "ask",
      "allow",
      ["rg TODO .", "diff /dev/null ./mevedel.el"],
      { workspace: "/srv/ws" },
    ),
    ...each("a resource outside the roots needs a grant", "L261", "ask", "ask", ["rg TODO .."], {
      workspace: "/srv/ws",
    }),
    ...each("an exact grant covers the outside resource", "L261", "ask", "allow", ["rg TODO .."], {
      workspace: "/srv/ws",
      grants: [{ path: "/srv", access: "read", recursive: false }],
    }),
    ...each(
      "an exact grant on an ancestor does not cover a descendant",
      "L37",
      "ask",
      "ask",
      ["cat /srv/tree/sub/file"],
      {
        workspace: "/srv/ws",
        grants: [{ path: "/srv/tree", access: "read", recursive: false }],
      },
    ),
    ...each("a recursive grant on an ancestor covers descendants", "L37", "ask", "allow", ["cat /srv/tree/sub/file"], {
      workspace: "/srv/ws",
      grants: [{ path: "/srv/tree", access: "read", recursive: true }],
    }),
    ...each("symlinks are resolved before root and grant checks", "L261", "ask", "ask", ["cat innocent"], {
      workspace: "/srv/ws",
      links: { "/srv/ws/innocent": "/srv/secret" },
    }),
    ...each("a grant on the link does not cover its target", "L261", "ask", "ask", ["cat innocent"], {
      workspace: "/srv/ws",
      links: { "/srv/ws/innocent": "/srv/secret" },
      grants: [{ path: "/srv/ws/innocent", access: "read", recursive: false }],
    }),
    ...each("a grant on the target covers the link", "L261", "ask", "allow", ["cat innocent"], {
      workspace: "/srv/ws",
      links: { "/srv/ws/innocent": "/srv/secret" },
      grants: [{ path: "/srv/secret", access: "read", recursive: false }],
    }),
  ]),
  ...group(PR, "mevedel-permission-rules-find", [
    ...each(
      "PREFIX:* matches the bare command and the command with arguments",
      "L79",
      "ask",
      "deny",
      ["git log", "git log --oneline"],
      {
        persistent: ['("Bash" :pattern "git log:*" :action deny)'],
      },
    ),
    ...each("PREFIX:* does not match another word", "L79", "ask", "ask", ["git lollipop"], {
      persistent: ['("Bash" :pattern "git log:*" :action deny)'],
    }),
    ...each("PREFIX:* allow", "L79", "ask", "allow", ["make build", "make build --jobs 4"], {
      persistent: ['("Bash" :pattern "make build:*" :action allow)'],
    }),
    ...each("PREFIX:* allow does not reach a longer word", "L79", "ask", "ask", ["make buildall"], {
      persistent: ['("Bash" :pattern "make build:*" :action allow)'],
    }),
    ...each("PREFIX:* ask", "L79", "edits", "ask", ["npm publish", "npm publish --tag next"], {
      session: ['("Bash" :pattern "npm publish:*" :action ask)'],
    }),
    ...each("glob pattern rule", "L79", "ask", "allow", ["make dist --verbose"], {
      persistent: ['("Bash" :pattern "make dist*" :action allow)'],
    }),
    ...each("glob ? matches one character", "L79", "ask", "deny", ["make t1"], {
      persistent: ['("Bash" :pattern "make t?" :action deny)'],
    }),
    {
      doc: "domain rule matches only matching hosts",
      seed: "L81",
      mode: "ask",
      expect: "allow",
      persistent: ['("WebFetch" :domain "*.example.com" :action allow)'],
      call: { tool: "WebFetch", input: { url: "https://api.example.com/x" } },
    },
    {
      doc: "domain rule does not match another host",
      seed: "L81",
      mode: "ask",
      expect: "ask",
      persistent: ['("WebFetch" :domain "*.example.com" :action allow)'],
      call: { tool: "WebFetch", input: { url: "https://evil.org/x" } },
    },
    {
      doc: "name rule matches only matching names",
      seed: "L82",
      mode: "ask",
      expect: "deny",
      persistent: ['("Agent" :name "verifier" :action deny)'],
      call: { tool: "Agent", input: { name: "verifier" } },
    },
    {
      doc: "name rule does not match another name",
      seed: "L82",
      mode: "ask",
      expect: "allow",
      persistent: ['("Agent" :name "verifier" :action deny)'],
      call: { tool: "Agent", input: { name: "explorer" } },
    },
  ]),
  ...group(PR, "mevedel-permission-rules-action", [
    ...each("specifier rule overrides a generic rule of opposite action", "L84", "ask", "allow", ["echo hello"], {
      persistent: ['("Bash" :action deny)', '("Bash" :pattern "echo*" :action allow)'],
    }),
    ...each("generic rule applies when the specifier does not match", "L84", "ask", "deny", ["rm -rf build"], {
      persistent: ['("Bash" :action deny)', '("Bash" :pattern "echo*" :action allow)'],
    }),
    ...each("deny wins over allow within the specifier group", "L84", "ask", "deny", ["git push origin"], {
      persistent: ['("Bash" :pattern "git*" :action allow)', '("Bash" :pattern "git push*" :action deny)'],
    }),
    {
      doc: "deny takes precedence over allow",
      seed: "L84",
      mode: "ask",
      expect: "deny",
      persistent: ['("Edit" :action allow)', '("Edit" :action deny)'],
      call: { tool: "ApplyPatch", input: { path: "/w/src/a.el" } },
    },
    {
      doc: "ask takes precedence over allow",
      seed: "L84",
      mode: "edits",
      expect: "ask",
      persistent: ['("Edit" :action allow)', '("Edit" :action ask)'],
      call: { tool: "ApplyPatch", input: { path: "/w/src/a.el" } },
    },
    {
      doc: "a native specifier allow beats the bucket's generic deny",
      seed: "L84",
      mode: "ask",
      expect: "allow",
      persistent: ['("Read" :action deny)', '("Read" :path "/w/docs/**" :action allow)'],
      call: { tool: "Read", input: { path: "/w/docs/a.md" } },
    },
    ...each("execution-level qualifiers never match ordinary tool resolution", "L86", "ask", "ask", ["make test"], {
      persistent: ['("Bash" :sandbox-permissions require-escalated :action allow)'],
    }),
  ]),
  ...group(PR, "mevedel-permission-rules-bucket-decision", [
    {
      doc: "an outer deny remains absolute over an inner allow",
      seed: "L64",
      mode: "ask",
      expect: "deny",
      session: ['("Read" :path "/srv/secret" :action allow)'],
      persistent: ['("Read" :path "/srv/secret" :action deny)'],
      call: { tool: "Read", input: { path: "/srv/secret" } },
    },
    {
      doc: "without a deny the innermost matching action wins",
      seed: "L65",
      mode: "ask",
      expect: "ask",
      session: ['("Read" :path "/srv/secret" :action ask)'],
      persistent: ['("Read" :path "/srv/secret" :action allow)'],
      call: { tool: "Read", input: { path: "/srv/secret" } },
    },
    {
      doc: "the innermost bucket's own verdict wins: a session generic ask over a persistent specific allow",
      seed: "L65",
      mode: "ask",
      expect: "ask",
      session: ['("Bash" :action ask)'],
      persistent: ['("Bash" :pattern "make test" :action allow)'],
      call: bash("make test"),
    },
  ]),
  ...group(PR, "mevedel-permission-rules-execution-level-decision", [
    {
      doc: "a direct scoped rule authorizes only its requested execution level",
      seed: "L263",
      mode: "edits",
      expect: "allow",
      session: ['("Bash" :pattern "emacs --batch *" :sandbox-permissions require-escalated :action allow)'],
      call: bash("emacs --batch -Q", {
        sandbox_permissions: "require_escalated",
        justification: "needs the user's Emacs",
      }),
    },
    {
      doc: "the scoped rule does not cover another command",
      seed: "L263",
      mode: "edits",
      expect: "ask",
      session: ['("Bash" :pattern "emacs --batch *" :sandbox-permissions require-escalated :action allow)'],
      call: bash("curl example.test", { sandbox_permissions: "require_escalated", justification: "network" }),
    },
    {
      doc: "escalation without a qualified rule asks",
      seed: "L263",
      mode: "edits",
      expect: "ask",
      call: bash("make test", { sandbox_permissions: "require_escalated", justification: "x" }),
    },
    {
      doc: "a deliberately broad direct rule may authorize full escalation (Eval)",
      seed: "L86",
      mode: "edits",
      expect: "allow",
      global: ['("Eval" :sandbox-permissions require-escalated :action allow)'],
      call: {
        tool: "Eval",
        input: { expression: '(message "hello")', mode: "batch", sandbox_permissions: "require_escalated" },
      },
    },
    {
      doc: "a qualified deny remains final over a qualified allow",
      seed: "L86",
      mode: "edits",
      expect: "deny",
      session: ['("Bash" :sandbox-permissions require-escalated :action deny)'],
      persistent: ['("Bash" :sandbox-permissions require-escalated :action allow)'],
      call: bash("pwd", { sandbox_permissions: "require_escalated", justification: "x" }),
    },
  ]),
  ...group(PR, "mevedel-permission-rules-resource-granted-p", [
    ...(
      [
        [
          "exact grant matches only its exact path",
          "/etc/passwd",
          "read",
          "allow",
          { path: "/etc/passwd", access: "read", recursive: false },
        ],
        [
          "exact grant does not match a sibling",
          "/etc/passwd2",
          "read",
          "ask",
          { path: "/etc/passwd", access: "read", recursive: false },
        ],
        [
          "recursive grant matches descendants",
          "/usr/share/emacs/31.1/lisp/simple.el",
          "read",
          "allow",
          { path: "/usr/share/emacs", access: "read", recursive: true },
        ],
        [
          "a similarly prefixed sibling does not match",
          "/usr/share/emacs-old/x",
          "read",
          "ask",
          { path: "/usr/share/emacs", access: "read", recursive: true },
        ],
        [
          "a write grant implies read",
          "/srv/out",
          "read",
          "allow",
          { path: "/srv/out", access: "write", recursive: false },
        ],
        [
          "a read grant does not imply write",
          "/srv/out/log",
          "write",
          "ask",
          { path: "/srv/out", access: "read", recursive: true },
        ],
      ] as [string, string, "read" | "write", Action, Grant][]
    ).map(([doc, path, access, expect, grant]): Row => ({
      doc,
      seed: "L37",
      mode: "ask",
      expect,
      grants: [grant],
      call: { tool: access === "read" ? "Read" : "ApplyPatch", input: { path } },
    })),
  ]),
  ...group(PR, "mevedel-permission-rules-path-protected-p", [
    ...(
      [
        ["the git directory is protected (read-only needs a grant to be read in Ask)", "ask", "/w/.git/config", "ask"],
        ["a covering read grant opens the protected directory", "ask", "/w/.git/config", "allow"],
        ["ssh keys are protected", "ask", "/home/u/.ssh/id_rsa", "ask"],
        ["cloud credentials are protected", "ask", "/home/u/.aws/credentials", "ask"],
        ["kube config is protected", "ask", "/home/u/.kube/config", "ask"],
        ["gcloud credentials are protected", "ask", "/home/u/.config/gcloud/credentials.db", "ask"],
        ["a normal path is not protected", "ask", "/w/src/a.el", "allow"],
        ["Edits reads read-only protected paths", "edits", "/w/.git/config", "allow"],
        ["Edits keeps inaccessible credentials masked", "edits", "/home/u/.ssh/id_rsa", "ask"],
        ["Full Access removes the default credential masks", "full-auto", "/home/u/.ssh/id_rsa", "allow"],
      ] as [string, MevedelCase["mode"], string, Action][]
    ).map(([doc, mode, path, expect], i): Row => ({
      doc,
      seed: i < 7 ? "L33" : "L17",
      mode,
      expect,
      grants: i === 1 ? [{ path: "/w/.git", access: "read", recursive: true }] : undefined,
      call: { tool: "Read", input: { path } },
    })),
    {
      doc: "a symlink into the git directory is judged by its target",
      seed: "L33",
      mode: "ask",
      expect: "ask",
      links: { "/w/notes": "/w/.git/config" },
      call: { tool: "Read", input: { path: "/w/notes" } },
    },
  ]),
  ...group(MO, "mevedel-tool-exec-permission-check-bash-async-modes", [
    ...each("confined Edits accepts arbitrary syntax without a card", "L14", "edits", "allow", [
      "unknown-test-runner --check",
      "git status | cat",
      'for file in *.el; do wc -l "$file"; done',
      "make test > test.log 2>&1",
      "cat /usr/share/emacs/manual",
    ]),
    ...(
      [
        [{}],
        [{ sandbox_permissions: "require_escalated", justification: "Requested full access" }],
        [
          {
            sandbox_permissions: "with_additional_permissions",
            justification: "Requested full access",
            additional_permissions: { network: true, file_system: { write: ["/outside/cache"] } },
          },
        ],
      ] as [Record<string, unknown>][]
    ).map(([extra]): Row => ({
      doc: "full-auto bypasses asks for every authority level",
      seed: "L17",
      mode: "full-auto",
      expect: "allow",
      global: ['("Bash" :action ask)'],
      call: bash("cat ~/.ssh/key", extra),
    })),
    ...each("full-auto retains explicit operation denies", "L17", "full-auto", "deny", ["make test"], {
      global: ['("Bash" :pattern "make *" :action deny)'],
    }),
    {
      doc: "full-auto retains explicit network denies",
      seed: "L17",
      mode: "full-auto",
      expect: "deny",
      global: ['("Bash" :network t :action deny)'],
      call: bash("make test", {
        sandbox_permissions: "with_additional_permissions",
        additional_permissions: { network: true },
        justification: "Test",
      }),
    },
    {
      doc: "full-auto retains explicit escalation denies",
      seed: "L17",
      mode: "full-auto",
      expect: "deny",
      global: ['("Bash" :sandbox-permissions require-escalated :action deny)'],
      call: bash("make test", { sandbox_permissions: "require_escalated", justification: "Test" }),
    },
  ]),
  ...group(MO, "mevedel-tool-exec-permission-check-eval-async-modes", [
    {
      doc: "Edits automates batch Eval",
      seed: "L289",
      mode: "edits",
      expect: "allow",
      call: { tool: "Eval", input: { expression: "(+ 1 2)", mode: "batch" } },
    },
    {
      doc: "live Eval still requests authority in Edits",
      seed: "L289",
      mode: "edits",
      expect: "ask",
      call: { tool: "Eval", input: { expression: "(+ 1 2)", mode: "live" } },
    },
  ]),
  ...group(EP, "mevedel-tool-exec-permission-check-eval-async", [
    ...(["ask", "edits", "full-auto"] as const).map((mode): Row => ({
      doc: "an unknown Eval mode is denied with mevedel's reason",
      seed: "L293",
      mode,
      expect: "deny",
      reason: /Unknown Eval mode: fast/,
      global: ['("Eval" :action allow)'],
      call: { tool: "Eval", input: { expression: "(+ 1 2)", mode: "fast" } },
    })),
    ...(["ask", "full-auto"] as const).map((mode): Row => ({
      doc: "a call without an expression is denied",
      seed: "L289",
      mode,
      expect: "deny",
      reason: /expression is required/,
      call: { tool: "Eval", input: { mode: "batch" } },
    })),
  ]),
];
