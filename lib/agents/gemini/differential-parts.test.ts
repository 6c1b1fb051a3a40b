/**
 * Gemini CLI's own building blocks as judges for the cockpit's: shell parsing (sub-commands, redirection, roots,
 * wrappers), the known-safe and dangerous command lists, stable stringify, pattern building, the ReDoS check, and
 * settings-derived rules through Gemini's `createPolicyEngineConfig`. Deep imports of @google/gemini-cli-core 0.61.0
 * (dev dependency, tests only). A failure prints its seed: GEMINI_DIFF_SEED=<n>.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mulberry32, pick, type Rand } from "@/test/support/seeded";
import {
  ApprovalMode,
  createPolicyEngineConfig,
  getCommandRoots,
  hasRedirection,
  initializeShellParsers,
  parseCommandDetails,
  PolicyEngine,
  stripShellWrapper as theirStrip,
} from "@google/gemini-cli-core";
import * as theirSafety from "@google/gemini-cli-core/dist/src/sandbox/utils/commandSafety.js";
import * as theirUtils from "@google/gemini-cli-core/dist/src/policy/utils.js";
import { stableStringify as theirStringify } from "@google/gemini-cli-core/dist/src/policy/stable-stringify.js";
import { isDangerousCommand, isKnownSafeCommand } from "./command-safety";
import { decideGemini } from "./engine";
import { realHost } from "./io/host";
import { loadGeminiShell } from "./io/shell-wasm";
import { loadGeminiStores } from "./io/stores";
import { buildArgsPatterns, buildParamArgsPattern, isSafeRegExp, stableStringify } from "./patterns";
import { commandRoots, shellQuoteArgs, stripShellWrapper, type GeminiShell } from "./shell";
import type { GeminiMode } from "./types";

const SETTINGS_FILES = Number(process.env.GEMINI_DIFF_SETTINGS ?? 60);

type R = Rand;
const SEED = Number(process.env.GEMINI_DIFF_SEED ?? 4242);

const WORDS = [
  "ls", "-la", "git", "status", "log", "--oneline", "-c", "core.x=y", "rm", "-rf", "-f", "build", "cat", "README.md",
  "/etc/passwd", "~/.ssh/id_rsa", "echo", "héllo", "→", "\"a b\"", "'c d'", "$HOME", "${x}", "${x@P}", "$(whoami)",
  "`date`", "<(ls)", ">(cat)", ">", ">>", "<", "2>&1", "&>", "|", "|&", "&&", "||", ";", "&", "\n", "#", "# comment",
  "bash", "sh", "zsh", "-lc", "sudo", "find", ".", "-exec", "{}", "\\;", "-delete", "rg", "--pre", "/usr/bin/rg", "sed",
  "-n", "1,5p", "grep", "-f", "x", "base64", "-o", "ln", "-s", "FOO=1", "env", "time", "cd", "..", "/tmp", "(", ")",
  "{", "}", "if", "then", "fi", "for", "i", "in", "do", "done", "[[", "]]", "[", "]", "test", "export", "unset",
  "declare", "<<EOF\nx\nEOF", "<<<", "\"unterminated", "'", "npm", "test", "node", "-e", "tac", "wc", "-l", "head",
  "branch", "-D", "--output=x", "show", "diff", "--ext-diff", "\t", "\\", "*.ts", "?", "a\\ b",
]; // prettier-ignore

function genCommand(r: R): string {
  const n = 1 + Math.floor(r() * 7);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(pick(r, WORDS));
  if (r() < 0.15) return `bash -c ${JSON.stringify(parts.join(" "))}`;
  return parts.join(r() < 0.9 ? " " : "");
}

let shell: GeminiShell;
beforeAll(async () => {
  vi.spyOn(console, "debug").mockImplementation(() => {});
  vi.spyOn(console, "log").mockImplementation(() => {});
  shell = await loadGeminiShell();
  await initializeShellParsers();
});

describe("shell parsing agrees with Gemini's shell-utils", () => {
  it("400 generated command lines: details, hasError, redirection, roots, wrapper, known-safe, dangerous", () => {
    const r = mulberry32(SEED);
    const host = realHost(process.cwd());
    const bad: string[] = [];
    let parsedOk = 0;
    for (let i = 0; i < 400; i++) {
      const c = genCommand(r);
      const theirs = parseCommandDetails(c);
      const ours = shell.details(c);
      const norm = (p: typeof ours) =>
        p ? { hasError: p.hasError, details: p.details.map((d) => [d.name, d.text, d.startIndex]) } : null;
      if (JSON.stringify(norm(theirs as typeof ours)) !== JSON.stringify(norm(ours)))
        bad.push(`details ${JSON.stringify(c)}`);
      if (ours && !ours.hasError) parsedOk++;
      if (hasRedirection(c) !== shell.hasRedirection(c)) bad.push(`hasRedirection ${JSON.stringify(c)}`);
      if (JSON.stringify(getCommandRoots(c)) !== JSON.stringify(commandRoots(shell, c)))
        bad.push(`roots ${JSON.stringify(c)}`);
      if (theirStrip(c) !== stripShellWrapper(c)) bad.push(`strip ${JSON.stringify(c)}`);
      let args: string[];
      try {
        args = shellQuoteArgs(c);
      } catch {
        continue;
      }
      if (
        theirSafety.isKnownSafeCommand(args, process.cwd(), process.cwd()) !==
        isKnownSafeCommand(host, shell, args, process.cwd())
      ) {
        bad.push(`known-safe ${JSON.stringify(args)}`);
      }
      if (theirSafety.isDangerousCommand(args) !== isDangerousCommand(args))
        bad.push(`dangerous ${JSON.stringify(args)}`);
    }
    expect(parsedOk).toBeGreaterThan(40);
    expect(bad.slice(0, 20).join("\n"), `seed ${SEED}: ${bad.length} disagreements`).toBe("");
  }, 180_000);
});

describe("policy helpers agree with Gemini's policy/utils.ts and stable-stringify.ts", () => {
  it("stableStringify, buildArgsPatterns, buildParamArgsPattern and isSafeRegExp on 2,000 generated inputs", () => {
    const r = mulberry32(SEED + 1);
    const atoms = [
      "",
      "a",
      "git log",
      'x"y',
      "é",
      "\u0000",
      "\n",
      "\\",
      "[",
      "(a+)+",
      ".*",
      "a{2}",
      "(?:x|y)",
      1,
      0,
      -1.5,
      true,
      null,
    ];
    const gen = (d: number): unknown => {
      const k = r();
      if (d > 3 || k < 0.5) return pick(r, atoms);
      if (k < 0.75) return Array.from({ length: Math.floor(r() * 4) }, () => gen(d + 1));
      const o: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(r() * 4); i++) o[String(pick(r, atoms))] = gen(d + 1);
      return o;
    };
    const bad: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const v = gen(0);
      if (theirStringify(v) !== stableStringify(v)) bad.push(`stringify ${JSON.stringify(v)}`);
      const s = String(pick(r, atoms)) + String(pick(r, atoms));
      if (
        JSON.stringify(theirUtils.buildArgsPatterns(undefined, s, undefined)) !==
        JSON.stringify(buildArgsPatterns(undefined, s))
      )
        bad.push(`prefix ${JSON.stringify(s)}`);
      if (
        JSON.stringify(theirUtils.buildArgsPatterns(undefined, undefined, s)) !==
        JSON.stringify(buildArgsPatterns(undefined, undefined, s))
      )
        bad.push(`regex ${JSON.stringify(s)}`);
      if (theirUtils.buildParamArgsPattern("file_path", s) !== buildParamArgsPattern("file_path", s))
        bad.push(`param ${JSON.stringify(s)}`);
      if (theirUtils.isSafeRegExp(s) !== isSafeRegExp(s)) bad.push(`safe ${JSON.stringify(s)}`);
    }
    expect(bad.slice(0, 20).join("\n"), `seed ${SEED}`).toBe("");
  });
});

describe("settings-derived rules agree with Gemini's createPolicyEngineConfig", () => {
  let home: string;
  let cwd: string;
  const savedHome = process.env.GEMINI_CLI_HOME;
  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), "gemini-settings-"));
    cwd = path.join(home, "proj");
    await mkdir(path.join(home, ".gemini", "policies"), { recursive: true });
    await mkdir(cwd, { recursive: true });
    process.env.GEMINI_CLI_HOME = home;
  });
  afterAll(async () => {
    if (savedHome === undefined) delete process.env.GEMINI_CLI_HOME;
    else process.env.GEMINI_CLI_HOME = savedHome;
    await rm(home, { recursive: true, force: true });
  });

  // `npm test` judges 60 settings files (the same every run); GEMINI_DIFF_SETTINGS=200 for the figure in the docs.
  it(`${SETTINGS_FILES} generated settings files × 15 calls decide alike`, async () => {
    const r = mulberry32(SEED + 2);
    const TOOLS = [
      "run_shell_command",
      "ShellTool",
      "glob",
      "read_file",
      "write_file",
      "web_fetch",
      "mcp_gh_create",
      "mcp_srv_list",
      "ask_user",
      "custom",
    ];
    const ALLOWED = [
      "run_shell_command(git status)",
      "ShellTool(npm test)",
      "run_shell_command",
      "glob",
      "read_file(x)",
      "write_file",
      "mcp_gh_create",
      "run_shell_command()",
    ];
    const CMDS = ["git status", "git push", "npm test", "ls", "rm -rf x", "echo hi > f"];
    const MODES: GeminiMode[] = ["default", "autoEdit", "yolo", "plan"];
    const some = <T>(xs: T[]) => xs.filter(() => r() < 0.25);
    const bad: string[] = [];
    for (let s = 0; s < SETTINGS_FILES; s++) {
      const settings: Record<string, unknown> = {};
      const tools: Record<string, unknown> = {};
      if (r() < 0.6) tools.allowed = some(ALLOWED);
      if (r() < 0.4) tools.exclude = some(TOOLS);
      if (r() < 0.25) tools.core = some(TOOLS);
      if (r() < 0.3) tools.confirmationRequired = some(TOOLS);
      settings.tools = tools;
      if (r() < 0.4)
        settings.mcp = {
          ...(r() < 0.5 ? { allowed: some(["gh", "srv", "*"]) } : {}),
          ...(r() < 0.5 ? { excluded: some(["gh", "srv", "*"]) } : {}),
        };
      if (r() < 0.4)
        settings.mcpServers = { gh: { command: "x", trust: r() < 0.5 }, srv: { command: "y", trust: r() < 0.5 } };
      if (r() < 0.1) settings.security = { disableAlwaysAllow: true };
      await writeFile(path.join(home, ".gemini", "settings.json"), JSON.stringify(settings));
      await writeFile(
        path.join(home, ".gemini", "policies", "auto-saved.toml"),
        r() < 0.5
          ? `[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["git"]\ndecision = "allow"\npriority = 950\n`
          : "",
      );
      const interactive = r() < 0.85;
      const mode = pick(r, MODES);
      // packages/cli/src/config/config.ts adds ask_user to tools.exclude for headless runs before calling core.
      const cliSettings = {
        ...settings,
        tools: {
          ...tools,
          exclude: interactive ? tools.exclude : [...((tools.exclude as string[]) ?? []), "ask_user"],
        },
      };
      const config = await createPolicyEngineConfig(
        {
          ...cliSettings,
          disableAlwaysAllow: (settings.security as { disableAlwaysAllow?: boolean } | undefined)?.disableAlwaysAllow,
        } as Parameters<typeof createPolicyEngineConfig>[0],
        {
          default: ApprovalMode.DEFAULT,
          autoEdit: ApprovalMode.AUTO_EDIT,
          yolo: ApprovalMode.YOLO,
          plan: ApprovalMode.PLAN,
        }[mode],
        undefined,
        interactive,
      );
      const oracle = new PolicyEngine(config);
      const stores = await loadGeminiStores(
        { home, cwd, systemDir: path.join(home, "no-etc"), env: { GEMINI_CLI_TRUST_WORKSPACE: "true" } },
        { interactive },
      );
      for (let c = 0; c < 15; c++) {
        const tool = pick(r, TOOLS);
        const input: Record<string, unknown> =
          tool === "run_shell_command" || tool === "ShellTool" ? { command: pick(r, CMDS) } : { file_path: "x" };
        const expected = await oracle.check({ name: tool, args: input }, undefined);
        const got = decideGemini(
          { tool, input },
          {
            rules: stores.rules,
            mode,
            nonInteractive: !interactive,
            disableAlwaysAllow: stores.disableAlwaysAllow,
            trustedFolder: true,
            shell,
            host: realHost(process.cwd()),
          },
        );
        if (expected.decision !== got.gemini) {
          bad.push(
            `set ${s} ${JSON.stringify(settings)} mode=${mode} interactive=${interactive} ${tool} ${JSON.stringify(input)}: Gemini ${expected.decision} (${expected.rule?.source}), cockpit ${got.gemini} (${got.rule?.source})`,
          );
        }
      }
    }
    expect(bad.slice(0, 10).join("\n"), `seed ${SEED}: ${bad.length} disagreements`).toBe("");
  }, 120_000);
});
