import path from "node:path";
import { containsGitCommand, isDangerousCommand, isKnownSafeCommand } from "./command-safety";
import { isSubpath, type HostFacts } from "./host";
import {
  AGENT_TOOL_NAME,
  EDIT_TOOL_NAMES,
  formatMcpToolName,
  isMcpToolName,
  MCP_TOOL_PREFIX,
  parseMcpToolName,
  SHELL_TOOL_NAMES,
  toolAliases,
} from "./names";
import { stableStringify } from "./patterns";
import { REDIRECTION_NAMES, shellQuoteArgs, stripShellWrapper, type GeminiShell } from "./shell";
import {
  ALWAYS_ALLOW_PRIORITY_FRACTION,
  type GeminiCall,
  type GeminiChecker,
  type GeminiDecision,
  type GeminiMode,
  type GeminiRule,
} from "./types";

/**
 * Gemini CLI's policy decision, re-implemented (facts from @google/gemini-cli-core 0.61.0
 * policy/policy-engine.ts `PolicyEngine.check`): rules sorted by priority, first match wins, shell heuristics,
 * sub-command re-checks, redirection, additional-permission paths, build-file protection and the allowed-path
 * safety checker. Pure and synchronous: the shell parser and the disk view are handed in.
 */

export interface EngineOptions {
  rules: GeminiRule[];
  checkers?: GeminiChecker[];
  mode: GeminiMode;
  /** Headless (`-p`): no one can answer, so the default decision is DENY. */
  nonInteractive?: boolean;
  defaultDecision?: GeminiDecision;
  /** `security.disableAlwaysAllow` / `admin.secureModeEnabled`: every …950 rule is ignored. */
  disableAlwaysAllow?: boolean;
  /** Folder trust of the workspace (an untrusted folder makes every git command ask). */
  trustedFolder: boolean;
  /** Parser built by `createGeminiShell`; null when none is loaded (every command then fails to parse). */
  shell: GeminiShell | null;
  host: HostFacts;
  /**
   * Run Gemini's safety checkers as far as the cockpit can: `allowed-path` is modelled; `conseca` (an LLM
   * checker, off unless `security.enableConseca`) turns an allow into an ask. Off = Gemini's engine without a
   * checker runner (the differential test's oracle).
   */
  safetyCheckers?: { enabled: boolean; conseca: boolean; workspaces: string[] };
}

export type CockpitDecision = "allow" | "ask" | "deny";

export interface GeminiVerdict {
  decision: CockpitDecision;
  gemini: GeminiDecision;
  /** The deciding rule, when one decided (heuristics and inherent checks leave it empty). */
  rule?: GeminiRule;
  reason: string;
  trace: string[];
}

const toCockpit = (d: GeminiDecision): CockpitDecision => (d === "ask_user" ? "ask" : d);

interface CheckResult {
  decision: GeminiDecision;
  rule?: GeminiRule;
  reason?: string;
}

function matchesWildcard(pattern: string, toolName: string, serverName: string | undefined): boolean {
  if (pattern === "*") return true;
  if (pattern === `${MCP_TOOL_PREFIX}*`) return serverName !== undefined;
  if (pattern.startsWith(MCP_TOOL_PREFIX) && pattern.endsWith("_*")) {
    const expected = pattern.slice(MCP_TOOL_PREFIX.length, -2);
    if (serverName === undefined || serverName !== expected) return false;
    return toolName.startsWith(`${MCP_TOOL_PREFIX}${expected}_`);
  }
  return toolName === pattern;
}

interface MatchCtx {
  stringifiedArgs: string | undefined;
  serverName: string | undefined;
  mode: GeminiMode;
  nonInteractive: boolean;
  annotations: Record<string, unknown> | undefined;
  subagent: string | undefined;
}

/** `ruleMatches`, field by field. */
export function ruleMatches(
  rule: Pick<GeminiRule, "toolName" | "mcpName" | "argsPattern" | "modes" | "toolAnnotations"> &
    Partial<Pick<GeminiRule, "subagent" | "interactive">>,
  call: { name: string; args?: Record<string, unknown> },
  ctx: MatchCtx,
): boolean {
  if (rule.modes && rule.modes.length > 0 && !rule.modes.includes(ctx.mode)) return false;
  if (rule.subagent !== undefined && rule.subagent !== ctx.subagent) return false;
  if (rule.mcpName !== undefined) {
    if (rule.mcpName === "*") {
      if (ctx.serverName === undefined) return false;
    } else if (ctx.serverName !== rule.mcpName) return false;
  }
  if (rule.toolName !== undefined && rule.toolName !== "*") {
    if (rule.toolName.includes("*")) {
      if (!call.name || !matchesWildcard(rule.toolName, call.name, ctx.serverName)) return false;
    } else if (call.name !== rule.toolName) {
      let mcpMatch = false;
      if (ctx.serverName && call.name) {
        if (
          rule.mcpName &&
          !isMcpToolName(rule.toolName) &&
          call.name === formatMcpToolName(rule.mcpName, rule.toolName)
        ) {
          mcpMatch = true;
        }
        if (
          !mcpMatch &&
          isMcpToolName(rule.toolName) &&
          rule.toolName === formatMcpToolName(ctx.serverName, call.name)
        ) {
          mcpMatch = true;
        }
      }
      if (!mcpMatch) return false;
    }
  }
  if (rule.toolAnnotations) {
    if (!ctx.annotations) return false;
    for (const [k, v] of Object.entries(rule.toolAnnotations)) if (ctx.annotations[k] !== v) return false;
  }
  if (rule.argsPattern) {
    if (!call.args) return false;
    if (ctx.stringifiedArgs === undefined || !rule.argsPattern.test(ctx.stringifiedArgs)) return false;
  }
  if (rule.interactive !== undefined) {
    if (rule.interactive && ctx.nonInteractive) return false;
    if (!rule.interactive && !ctx.nonInteractive) return false;
  }
  return true;
}

const byPriority = <T extends { priority: number }>(a: T, b: T) => (b.priority ?? 0) - (a.priority ?? 0);

const EXACT_BUILD_FILES = new Set([
  "BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", ".bazelrc", ".blazerc", "Makefile",
  "makefile", "GNUmakefile", "CMakeLists.txt", "package.json", "package-lock.json", "pnpm-lock.yaml", "yarn.lock",
  "bun.lockb", "setup.py", "setup.cfg", "pyproject.toml", "go.mod", "go.sum", "Cargo.toml", "Cargo.lock", "pom.xml",
  "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "Dockerfile", "Containerfile",
]); // prettier-ignore
const BUILD_EXTENSIONS = new Set([".bzl", ".bazel", ".bzlmod", ".mk", ".cmake"]);
const EDIT_KEYWORDS = new Set(["write", "edit", "replace", "patch", "update", "create", "append", "save"]);

/** `isBuildFile` (utils/buildFileUtils.ts): build and dependency manifests always need a person. */
export function isBuildFile(host: HostFacts, filePath: string): boolean {
  if (!filePath) return false;
  const clean = filePath.replace(/\0/g, "").replace(/\\/g, "/");
  const real = host.realpath(path.resolve(host.processCwd, clean)) ?? path.resolve(host.processCwd, clean);
  const base = path.basename(real);
  if (EXACT_BUILD_FILES.has(base)) return true;
  if (base.startsWith("Dockerfile.") || base.startsWith("Containerfile.")) return true;
  return BUILD_EXTENSIONS.has(path.extname(base).toLowerCase());
}

function extractFilePath(args: unknown): string | undefined {
  if (typeof args !== "object" || args === null) return undefined;
  const a = args as Record<string, unknown>;
  const t = a.file_path ?? a.path ?? a.filePath ?? a.file;
  return typeof t === "string" ? t : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

class Engine {
  readonly rules: GeminiRule[];
  readonly checkers: GeminiChecker[];
  readonly defaultDecision: GeminiDecision;
  readonly nonInteractive: boolean;
  readonly trace: string[] = [];

  constructor(readonly o: EngineOptions) {
    this.rules = [...o.rules].sort(byPriority);
    this.checkers = [...(o.checkers ?? [])].sort(byPriority);
    this.nonInteractive = o.nonInteractive ?? false;
    this.defaultDecision = o.defaultDecision ?? (this.nonInteractive ? "deny" : "ask_user");
  }

  note(s: string) {
    if (this.trace.length < 200) this.trace.push(s);
  }

  isAlwaysAllow(rule: GeminiRule) {
    return rule.priority !== undefined && Math.round((rule.priority % 1) * 1000) === ALWAYS_ALLOW_PRIORITY_FRACTION;
  }

  hasRedirection(command: string): boolean {
    return this.o.shell ? this.o.shell.hasRedirection(command) : /[><]/.test(command);
  }

  downgradeForRedirection(command: string, allowRedirection: boolean | undefined): boolean {
    if (allowRedirection) return false;
    if (!this.hasRedirection(command)) return false;
    return this.o.mode !== "autoEdit" && this.o.mode !== "yolo";
  }

  heuristics(command: string, decision: GeminiDecision, dirPath: unknown): GeminiDecision {
    if (decision === "deny") return "deny";
    const host = this.o.host;
    try {
      const args = shellQuoteArgs(command);
      const ws = host.workspace;
      const cwd = typeof dirPath === "string" && dirPath ? path.resolve(ws, dirPath) : ws;
      if (cwd !== ws && !isSubpath(host, ws, cwd) && this.o.mode !== "yolo") {
        this.note(`heuristics: dir_path ${cwd} is outside the workspace → ask`);
        return "ask_user";
      }
      if (containsGitCommand(args) && !this.o.trustedFolder) {
        this.note("heuristics: git in an untrusted folder → ask");
        return "ask_user";
      }
      if (isDangerousCommand(args)) {
        if (this.o.mode === "yolo") {
          this.note("heuristics: dangerous command, but YOLO keeps the decision");
          return decision;
        }
        this.note("heuristics: dangerous command (rm -f, sudo, find -exec, git -c, …) → ask");
        return "ask_user";
      }
      if (decision === "ask_user" && isKnownSafeCommand(host, this.o.shell, args, cwd)) {
        this.note("heuristics: known-safe read-only command → allow");
        return "allow";
      }
    } catch {
      // shell-quote could not read it: heuristics do not apply
    }
    return decision;
  }

  checkShell(
    toolName: string,
    command: unknown,
    ruleDecision: GeminiDecision,
    serverName: string | undefined,
    dirPath: unknown,
    allowRedirection: boolean | undefined,
    rule: GeminiRule | undefined,
    call: GeminiCall,
  ): CheckResult {
    if (typeof command !== "string" || !command) return { decision: ruleDecision, rule };
    const parsed = this.o.shell ? this.o.shell.details(command) : null;
    const subs = parsed?.details ?? [];
    if (subs.length === 0 || parsed?.hasError) {
      if (ruleDecision === "deny") return { decision: "deny", rule };
      if (this.o.mode === "yolo") {
        if (rule?.argsPattern) {
          this.note("shell: parse error under a rule with argsPattern in YOLO → deny");
          return { decision: "deny", rule };
        }
        this.note("shell: parse error in YOLO → allow");
        return { decision: "allow", rule };
      }
      this.note(`shell: the command does not parse → default decision (${this.defaultDecision})`);
      return { decision: this.defaultDecision, rule, reason: "the command does not parse" };
    }
    if (ruleDecision === "deny") return { decision: "deny", rule };
    let aggregate = ruleDecision;
    let responsible = rule && ruleDecision === rule.decision ? rule : undefined;
    let reason: string | undefined;
    if (this.downgradeForRedirection(command, allowRedirection) && aggregate === "allow") {
      this.note("shell: redirection downgrades allow → ask");
      aggregate = "ask_user";
      responsible = undefined;
      reason = "the command redirects input or output";
    }
    for (const d of subs) {
      if (REDIRECTION_NAMES.has(d.name)) continue;
      const sub = d.text.trim();
      const atomic = sub === command || (d.startIndex === 0 && d.text.length === command.length);
      const stripped = stripShellWrapper(sub);
      if (stripped !== sub) {
        this.note(`shell: re-check wrapper payload ${JSON.stringify(stripped)}`);
        const r = this.check(
          { ...call, tool: toolName, input: { command: stripped, dir_path: dirPath } },
          serverName,
          true,
        );
        if (r.decision === "deny") return r;
        if (r.decision === "ask_user") {
          if (aggregate === "allow") responsible = r.rule;
          else responsible ??= r.rule;
          aggregate = "ask_user";
          reason ??= r.reason ?? `the wrapped command ${JSON.stringify(stripped)} asks`;
        }
      }
      if (!atomic) {
        this.note(`shell: re-check sub-command ${JSON.stringify(sub)}`);
        const r = this.check({ ...call, tool: toolName, input: { command: sub, dir_path: dirPath } }, serverName, true);
        if (r.decision === "deny") return r;
        if (r.decision === "ask_user") {
          if (aggregate === "allow") responsible = r.rule;
          else responsible ??= r.rule;
          aggregate = "ask_user";
          reason ??= r.reason ?? `the sub-command ${JSON.stringify(sub)} asks`;
        }
        if (r.decision === "allow" && this.downgradeForRedirection(sub, allowRedirection) && aggregate === "allow") {
          aggregate = "ask_user";
          responsible = undefined;
          reason ??= `the sub-command ${JSON.stringify(sub)} redirects`;
        }
      }
    }
    return { decision: aggregate, rule: aggregate === ruleDecision ? rule : responsible, reason };
  }

  check(call: GeminiCall, serverNameIn: string | undefined, skipHeuristics: boolean): CheckResult {
    let serverName = serverNameIn;
    if (!serverName && call.annotations && typeof call.annotations._serverName === "string") {
      serverName = call.annotations._serverName;
    }
    if (!serverName && call.tool) {
      const p = parseMcpToolName(call.tool);
      if (p.serverName) serverName = p.serverName;
    }
    const args = call.input;
    let stringifiedArgs: string | undefined;
    if (args && (this.rules.some((r) => r.argsPattern) || this.checkers.some((c) => c.argsPattern))) {
      stringifiedArgs = stableStringify(args);
    }
    const toolName = call.tool;
    const isShell = !!toolName && SHELL_TOOL_NAMES.includes(toolName);
    const command = isShell ? (args as Record<string, unknown> | undefined)?.command : undefined;
    const dirPath = isShell ? (args as Record<string, unknown> | undefined)?.dir_path : undefined;

    const names = toolName ? toolAliases(toolName) : [];
    if (toolName === AGENT_TOOL_NAME && isRecord(args) && typeof args.agent_name === "string")
      names.push(args.agent_name);
    const ctx: MatchCtx = {
      stringifiedArgs,
      serverName,
      mode: this.o.mode,
      nonInteractive: this.nonInteractive,
      annotations: call.annotations,
      subagent: call.subagent,
    };

    let decision: GeminiDecision | undefined;
    let matched: GeminiRule | undefined;
    let reason: string | undefined;
    for (const rule of this.rules) {
      if (this.o.disableAlwaysAllow && this.isAlwaysAllow(rule)) continue;
      if (!names.some((name) => ruleMatches(rule, { name, args }, ctx))) continue;
      this.note(`rule ${rule.source} (priority ${rule.priority.toFixed(3)}) matches: ${rule.decision}`);
      let ruleDecision = rule.decision;
      if (!skipHeuristics && isShell && typeof command === "string" && command && !rule.argsPattern) {
        ruleDecision = this.heuristics(command, ruleDecision, dirPath);
      }
      if (isShell && toolName) {
        const r = this.checkShell(
          toolName,
          command,
          ruleDecision,
          serverName,
          dirPath,
          rule.allowRedirection,
          rule,
          call,
        );
        decision = r.decision;
        matched = r.rule;
        reason = r.reason;
      } else {
        decision = ruleDecision;
        matched = rule;
      }
      break;
    }

    if (decision === undefined) {
      if (this.o.mode === "yolo") {
        this.note("no rule matches; YOLO → allow");
        decision = "allow";
      } else {
        this.note(`no rule matches → default decision (${this.defaultDecision})`);
        if (isShell && toolName) {
          let h = this.defaultDecision;
          if (!skipHeuristics && typeof command === "string" && command) h = this.heuristics(command, h, dirPath);
          const r = this.checkShell(toolName, command, h, serverName, dirPath, false, undefined, call);
          decision = r.decision;
          matched = r.rule;
          reason = r.reason;
        } else {
          decision = this.defaultDecision;
        }
      }
    }

    if (decision === "allow") {
      const perms = isRecord(args) && isRecord(args.additional_permissions) ? args.additional_permissions : undefined;
      const fs = perms && isRecord(perms.fileSystem) ? perms.fileSystem : undefined;
      if (fs) {
        const ws = this.o.host.workspace;
        const all = [...(Array.isArray(fs.read) ? fs.read : []), ...(Array.isArray(fs.write) ? fs.write : [])];
        for (const p of all) {
          if (typeof p === "string" && !isSubpath(this.o.host, ws, p) && ws !== p) {
            this.note(`additional permission ${p} is outside the workspace → ask`);
            decision = "ask_user";
            reason = `it asks for access to ${p}, outside the workspace`;
            break;
          }
        }
      }
      const isEdit = names.some(
        (n) =>
          EDIT_TOOL_NAMES.has(n) ||
          n === "replace" ||
          n === "write_file" ||
          n
            .toLowerCase()
            .split(/[^a-z0-9]+/)
            .some((t) => EDIT_KEYWORDS.has(t)),
      );
      if (isEdit) {
        const target = extractFilePath(args)?.trim();
        if (target && isBuildFile(this.o.host, target)) {
          decision = this.nonInteractive ? "deny" : "ask_user";
          this.note(`build file protection: ${target} → ${decision}`);
          reason = "modifying build configuration files requires explicit user confirmation";
          matched = {
            toolName: toolName ?? "replace",
            decision,
            priority: Number.MAX_SAFE_INTEGER,
            source: "Build File Protection",
            denyMessage: "Modifying build configuration files requires explicit user confirmation",
          };
        }
      }
    }

    const cc = this.o.safetyCheckers;
    if (decision !== "deny" && cc?.enabled) {
      for (const checker of this.checkers) {
        if (!ruleMatches(checker, { name: toolName, args }, ctx)) continue;
        const r = this.runChecker(checker, call, cc);
        if (r.decision === "deny") {
          this.note(`safety checker ${checker.checker.name}: deny (${r.reason})`);
          return { decision: "deny", rule: matched, reason: r.reason };
        }
        if (r.decision === "ask_user") {
          this.note(`safety checker ${checker.checker.name}: ask (${r.reason})`);
          decision = "ask_user";
          reason = r.reason;
        }
      }
    }
    return { decision, rule: matched, reason };
  }

  runChecker(
    checker: GeminiChecker,
    call: GeminiCall,
    cc: NonNullable<EngineOptions["safetyCheckers"]>,
  ): { decision: GeminiDecision; reason: string } {
    if (checker.checker.type === "in-process" && checker.checker.name === "allowed-path") {
      return allowedPath(this.o.host, call.input, [this.o.host.workspace, ...cc.workspaces], checker.checker.config);
    }
    if (checker.checker.name === "conseca" && !cc.conseca) return { decision: "allow", reason: "conseca is off" };
    return {
      decision: "ask_user",
      reason: `the ${checker.checker.name} safety checker runs inside Gemini; the cockpit cannot run it`,
    };
  }
}

const VSCODE_SFN = /^(vscode|vs[0-9a-f]{4})~\d+$/;
const trimDots = (s: string) => s.replace(/[ .]+$/, "");

function blockedSegment(p: string): boolean {
  return p.split(/[/\\]/).some((seg) => {
    const c = trimDots(seg.split(":")[0]).toLowerCase();
    return (
      c === ".git" ||
      c === ".env" ||
      c === "node_modules" ||
      /^(git|gi[0-9a-f]{4})~\d+$/.test(c) ||
      /^(env|en[0-9a-f]{4})~\d+$/.test(c) ||
      /^(node_m|no[0-9a-f]{4})~\d+$/.test(c) ||
      (c.startsWith("gha-creds-") && c.endsWith(".json")) ||
      /^(gha-cr|gh[0-9a-f]{4})~\d+\.jso(n)?$/.test(c)
    );
  });
}

/** The `allowed-path` safety checker (safety/built-in.ts): paths in the arguments must stay in the workspace. */
function allowedPath(
  host: HostFacts,
  args: unknown,
  allowedDirs: string[],
  config: Record<string, unknown> | undefined,
): { decision: GeminiDecision; reason: string } {
  const included = Array.isArray(config?.included_args) ? (config.included_args as string[]) : [];
  const excluded = Array.isArray(config?.excluded_args) ? (config.excluded_args as string[]) : [];
  const paths: { p: string; arg: string }[] = [];
  const collect = (v: unknown, prefix: string) => {
    if (typeof v !== "object" || v === null) return;
    for (const [key, value] of Object.entries(v)) {
      const full = prefix ? `${prefix}.${key}` : key;
      if (excluded.includes(full)) continue;
      if (typeof value === "string") {
        if (
          included.includes(full) ||
          key.includes("path") ||
          key.includes("directory") ||
          key.includes("file") ||
          key === "source" ||
          key === "destination"
        ) {
          paths.push({ p: value, arg: full });
        }
      } else if (typeof value === "object") collect(value, full);
    }
  };
  collect(args, "");
  const resolve = (p: string): string | null => {
    const abs = path.resolve(host.workspace, p);
    let cur = abs;
    while (cur && cur !== path.dirname(cur)) {
      const k = host.kind(cur);
      if (k === "unknown") return null;
      if (k !== "missing") {
        const real = host.realpath(cur);
        if (real === null) return null;
        return path.join(real, path.relative(cur, abs));
      }
      cur = path.dirname(cur);
    }
    return abs;
  };
  const dirs = allowedDirs.map(resolve).filter((d): d is string => d !== null);
  const inside = (t: string, d: string) => {
    const rel = path.relative(d, t);
    return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
  };
  for (const { p, arg } of paths) {
    const r = resolve(p);
    if (!r) return { decision: "ask_user", reason: `the cockpit cannot resolve "${p}" in ${arg}` };
    let blocked = false;
    let vscode = false;
    for (const d of dirs) {
      if (!inside(r, d)) continue;
      const rel = path.relative(d, r);
      if (blockedSegment(rel)) blocked = true;
      if (rel.split(/[/\\]/).some((s) => { const c = trimDots(s.split(":")[0]).toLowerCase(); return c === ".vscode" || VSCODE_SFN.test(c); })) vscode = true; // prettier-ignore
    }
    if (blocked) return { decision: "deny", reason: `access to sensitive path "${p}" in ${arg} is blocked` };
    if (vscode)
      return {
        decision: "ask_user",
        reason: "modifying .vscode configuration files requires explicit user confirmation",
      };
    if (!dirs.some((d) => inside(r, d)))
      return { decision: "deny", reason: `"${p}" in ${arg} is outside the workspace` };
  }
  return { decision: "allow", reason: "paths inside the workspace" };
}

function describe(v: CheckResult, mode: GeminiMode): string {
  if (v.reason) return v.reason;
  if (v.rule) {
    const where = v.rule.origin?.file
      ? ` (${v.rule.origin.file}${v.rule.origin.line ? `:${v.rule.origin.line}` : ""})`
      : "";
    return `${v.rule.source}${where}: ${v.rule.decision}${v.rule.denyMessage ? ` — ${v.rule.denyMessage}` : ""}`;
  }
  if (mode === "yolo" && v.decision === "allow") return "YOLO mode allows what no rule decides";
  return v.decision === "allow"
    ? "Gemini's shell heuristics allow this read-only command"
    : "no rule decides: Gemini's default";
}

/** Decide one call as Gemini CLI would: allow, ask or deny, with the deciding rule and a trace. */
export function decideGemini(call: GeminiCall, options: EngineOptions): GeminiVerdict {
  const engine = new Engine(options);
  const r = engine.check(call, call.server, false);
  return {
    decision: toCockpit(r.decision),
    gemini: r.decision,
    rule: r.rule,
    reason: describe(r, options.mode),
    trace: engine.trace,
  };
}
