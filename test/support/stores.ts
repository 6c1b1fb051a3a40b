/** Temp workspaces for store tests: each suite gets its own folder with HOME pointed inside it. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SessionEntryRow, SessionEntrySource } from "@/lib/stores/session";

export interface Sandbox {
  root: string;
  workspace: string;
  home: string;
  /** Store paths options: managed settings disabled unless a test sets one. */
  paths: { workspace: string; home: string; managedSettingsPath: string | null };
  write(rel: string, content: string | Buffer): string;
  read(rel: string): string;
  abs(rel: string): string;
  cleanup(): void;
}

/** `rel` starting with `~/` is under home; anything else is under the workspace. */
export function makeSandbox(prefix = "stores-"): Sandbox {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  const workspace = path.join(root, "project");
  const home = path.join(root, "home");
  mkdirSync(workspace);
  mkdirSync(home);
  const abs = (rel: string) =>
    rel.startsWith("~/") ? path.join(home, rel.slice(2)) : path.isAbsolute(rel) ? rel : path.join(workspace, rel);
  return {
    root,
    workspace,
    home,
    paths: { workspace, home, managedSettingsPath: null },
    abs,
    write(rel, content) {
      const file = abs(rel);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      return file;
    },
    read: (rel) => readFileSync(abs(rel), "utf8"),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Mark `workspace` as trusted the way Claude Code records it (`~/.claude.json`,
 * `projects[path].hasTrustDialogAccepted`): without it a workspace's Claude Code allow rules are held back.
 */
export function trustClaudeWorkspace(home: string, workspace: string): void {
  const file = path.join(home, ".claude.json");
  let data: { projects?: Record<string, unknown> } = {};
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    data = {};
  }
  data.projects = { ...data.projects, [path.resolve(workspace)]: { hasTrustDialogAccepted: true } };
  mkdirSync(home, { recursive: true });
  writeFileSync(file, JSON.stringify(data, null, 2));
}

export const FIXTURES = {
  claudeTabs:
    '{\n\t"permissions": {\n\t\t"allow": [\n\t\t\t"Bash(git log:*)",\n\t\t\t"Bash(npm run test:*)",\n\t\t\t"Read(~/.zshrc)"\n\t\t],\n\t\t"deny": ["Read(./.env)", "Bash(curl *)"]\n\t},\n\t"model": "opus"\n}\n',
  claudeCrlf3:
    '{\r\n   "permissions": {\r\n      "allow": [\r\n         "Bash(git status:*)",\r\n         "WebFetch(domain:exämple.com)"\r\n      ],\r\n      "ask": [\r\n         "Bash(git push *)"\r\n      ]\r\n   }\r\n}\r\n',
  commandcodeJsonc:
    '// Command Code settings — ünïcode ✓\n{\n  /* rules */\n  "permissions": {\n    "allow": [\n      "Shell(git:*)", // everything git\n      "Edit(src/**)",\n      "mcp__github__*",\n    ],\n    "deny": ["Shell(rm -rf *)"],\n    "defaultMode": "accept-edits",\n  },\n  "disableBypass": true,\n}\n',
  mevedel: `;; -*- mode: emacs-lisp -*-
;; Project permissions (ünïcode ✓)
(:rules
 (("Bash" :action ask)                       ; default ask
  ("Bash" :pattern "git log*" :action allow)
  ("Bash" :pattern "npx @emacs-eask/cli *"
   :network t
   :file-system ((:path "~/.npm" :access write :recursive t)
                 (:path "/usr/share/emacs" :access read :recursive t))
   :action allow)
  ("Bash" :pattern "rm *" :action deny))
 :resource-grants
 ((:path "~/notes" :access read)
  (:path "/srv/data" :access write :recursive t)))
`,
};

/** An in-memory session source for store tests (the server's source is lib/session-entries). */
export function memorySessionSource(rows: SessionEntryRow[]): SessionEntrySource & { rows: SessionEntryRow[] } {
  const state = { rows: [...rows] };
  return {
    get rows() {
      return state.rows;
    },
    async list() {
      return [...state.rows];
    },
    async revoke(id: string) {
      const before = state.rows.length;
      state.rows = state.rows.filter((r) => r.id !== id);
      if (state.rows.length === before) throw new Error(`no session entry ${id}`);
    },
  };
}
