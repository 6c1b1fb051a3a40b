/**
 * The call shapes the cockpit receives for Codex, normalized to the one the engine decides (`CodexCall`: the shell
 * tool's argv). `cockpit decide` sends the argv form (`{"tool":"shell","input":{"command":[argv…]}}`); a
 * PermissionRequest hook carries the command as Codex shows it (`tool_name: "Bash"`, a string): Codex's
 * `shell_command` and `exec_command` tools run that string with the user's shell (`[shell, "-lc", command]`,
 * core/src/tools/handlers/shell.rs, unified_exec.rs), and its `shell` tool's argv arrives shlex-joined, which the
 * shell reads back to the same argv. Pure.
 */
import { z } from "zod";
import { CodexCall, SandboxPermissions } from "./decide";
import { shlexJoin } from "./shlex";

/** The shell Codex's string-command tools run through; any POSIX shell splits the same way for its rules. */
const LOGIN_SHELL = "bash";

const StringCommand = z.object({
  command: z.string().min(1, "command is empty").max(1_000_000),
  sandbox_permissions: SandboxPermissions.optional(),
  prefix_rule: z.array(z.string()).optional(),
  justification: z.string().optional(),
  description: z.string().optional(),
});

/** Tool names whose input is one command string run through the user's shell. */
const SCRIPT_TOOLS = new Set(["bash", "shell_command", "exec_command", "local_shell", "shell"]);

export type CallReading = { ok: true; call: CodexCall } | { ok: false; error: string };

/** The call as Codex's exec policy sees it, or why the cockpit does not decide it. */
export function readCodexCall(raw: { tool?: unknown; input?: unknown }): CallReading {
  const tool = typeof raw.tool === "string" ? raw.tool : "";
  const input = (raw.input ?? {}) as Record<string, unknown>;
  if (tool === "shell" && Array.isArray(input.command)) {
    const parsed = CodexCall.safeParse({ tool, input });
    if (parsed.success) return { ok: true, call: parsed.data };
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `${["input", ...issue.path.slice(1)].join(".")} ${issue.message}` };
  }
  if (SCRIPT_TOOLS.has(tool.toLowerCase())) {
    const source =
      typeof input.cmd === "string" && input.command === undefined ? { ...input, command: input.cmd } : input;
    const parsed = StringCommand.safeParse(source);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { ok: false, error: `input.${issue.path.join(".") || "command"} ${issue.message}` };
    }
    const p = parsed.data;
    return {
      ok: true,
      call: {
        tool: "shell",
        input: {
          command: [LOGIN_SHELL, "-lc", p.command],
          ...(p.sandbox_permissions ? { sandbox_permissions: p.sandbox_permissions } : {}),
          ...(p.prefix_rule ? { prefix_rule: p.prefix_rule } : {}),
          ...((p.justification ?? p.description) ? { justification: p.justification ?? p.description } : {}),
        },
      },
    };
  }
  return {
    ok: false,
    error: `Codex's exec policy decides shell calls ({"tool":"shell","input":{"command":[argv…]}}), not "${tool.slice(0, 80)}"`,
  };
}

/** The command as Codex shows it in its prompt: the script of a `[shell, -lc, script]` call, else the joined argv. */
export function displayOf(call: CodexCall): string {
  const argv = call.input.command;
  if (argv.length === 3 && argv[0] === LOGIN_SHELL && argv[1] === "-lc") return argv[2]!;
  return shlexJoin(argv);
}
