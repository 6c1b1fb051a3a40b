/**
 * Transcribed from openai/codex `codex-rs/shell-command/src/bash.rs` (mod tests) and
 * `codex-rs/core/src/exec_policy_tests.rs` (commands_for_exec_policy_*), each case naming its test.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { bash, useCodexParsers } from "@/test/support/codex";
import {
  commandsForExecPolicy,
  isPosixShell,
  parseShellLcPlainCommands,
  parseShellLcSingleCommandPrefix,
} from "./shell-split";

beforeAll(useCodexParsers);

const seq = (src: string) => parseShellLcPlainCommands(["bash", "-lc", src], bash);

describe("shell-command/src/bash.rs", () => {
  it("accepts_single_simple_command", () => expect(seq("ls -1")).toEqual([["ls", "-1"]]));
  it("accepts_multiple_commands_with_allowed_operators", () =>
    expect(seq("ls && pwd; echo 'hi there' | wc -l")).toEqual([["ls"], ["pwd"], ["echo", "hi there"], ["wc", "-l"]]));
  it("extracts_double_and_single_quoted_strings", () => {
    expect(seq('echo "hello world"')).toEqual([["echo", "hello world"]]);
    expect(seq("echo 'hi there'")).toEqual([["echo", "hi there"]]);
  });
  it("accepts_double_quoted_strings_with_newlines", () =>
    expect(seq('git commit -m "line1\nline2"')).toEqual([["git", "commit", "-m", "line1\nline2"]]));
  it("accepts_mixed_quote_concatenation", () => {
    expect(seq(`echo "/usr"'/'"local"/bin`)).toEqual([["echo", "/usr/local/bin"]]);
    expect(seq(`echo '/usr'"/"'local'/bin`)).toEqual([["echo", "/usr/local/bin"]]);
  });
  it("rejects_double_quoted_strings_with_expansions", () => {
    expect(seq('echo "hi ${USER}"')).toBeUndefined();
    expect(seq('echo "$HOME"')).toBeUndefined();
  });
  it("accepts_numbers_as_words", () => expect(seq("echo 123 456")).toEqual([["echo", "123", "456"]]));
  it("rejects_parentheses_and_subshells", () => {
    expect(seq("(ls)")).toBeUndefined();
    expect(seq("ls || (pwd && echo hi)")).toBeUndefined();
  });
  it("rejects_redirections_and_unsupported_operators", () => {
    expect(seq("ls > out.txt")).toBeUndefined();
    expect(seq("echo hi & echo bye")).toBeUndefined();
  });
  it("rejects_command_and_process_substitutions_and_expansions", () => {
    for (const s of ["echo $(pwd)", "echo `pwd`", "echo $HOME", 'echo "hi $USER"']) expect(seq(s)).toBeUndefined();
  });
  it("rejects_variable_assignment_prefix", () => expect(seq("FOO=bar ls")).toBeUndefined());
  it("rejects_trailing_operator_parse_error", () => expect(seq("ls &&")).toBeUndefined());
  it("rejects_empty_command_position_with_leading_operator", () => expect(seq("&& ls")).toBeUndefined());
  it("rejects_empty_command_position_with_double_separator", () => expect(seq("ls ;; pwd")).toBeUndefined());
  it("rejects_empty_command_position_with_empty_pipeline_segment", () => expect(seq("ls | | wc")).toBeUndefined());
  it("parse_zsh_lc_plain_commands", () =>
    expect(parseShellLcPlainCommands(["zsh", "-lc", "ls"], bash)).toEqual([["ls"]]));
  it("accepts_concatenated_flag_and_value", () =>
    expect(seq('rg -n "foo" -g"*.py"')).toEqual([["rg", "-n", "foo", "-g*.py"]]));
  it("accepts_concatenated_flag_with_single_quotes", () =>
    expect(seq("grep -n 'pattern' -g'*.txt'")).toEqual([["grep", "-n", "pattern", "-g*.txt"]]));
  it("rejects_concatenation_with_variable_substitution", () => {
    expect(seq('rg -g"$VAR" pattern')).toBeUndefined();
    expect(seq('rg -g"${VAR}" pattern')).toBeUndefined();
  });
  it("rejects_concatenation_with_command_substitution", () => {
    expect(seq('rg -g"$(pwd)" pattern')).toBeUndefined();
    expect(seq(`rg -g"$(echo '*.py')" pattern`)).toBeUndefined();
  });
  it("parse_shell_lc_single_command_prefix_supports_heredoc", () => {
    expect(parseShellLcSingleCommandPrefix(["zsh", "-lc", "python3 <<'PY'\nprint('hello')\nPY"], bash)).toEqual([
      "python3",
    ]);
    expect(parseShellLcSingleCommandPrefix(["zsh", "-lc", "python3 << PY\nprint('hello')\nPY"], bash)).toEqual([
      "python3",
    ]);
  });
  it("parse_shell_lc_single_command_prefix_rejects_multi_command_scripts", () =>
    expect(
      parseShellLcSingleCommandPrefix(["bash", "-lc", "python3 <<'PY'\nprint('hello')\nPY\necho done"], bash),
    ).toBeUndefined());
  it("parse_shell_lc_single_command_prefix_rejects_non_heredoc_redirects", () =>
    expect(parseShellLcSingleCommandPrefix(["bash", "-lc", "echo hello > /tmp/out.txt"], bash)).toBeUndefined());
  it("parse_shell_lc_single_command_prefix_accepts_heredoc_with_extra_redirect", () =>
    expect(
      parseShellLcSingleCommandPrefix(["bash", "-lc", "python3 <<'PY' > /tmp/out.txt\nprint('hello')\nPY"], bash),
    ).toEqual(["python3"]));
  it("parse_shell_lc_single_command_prefix_rejects_herestring_with_chaining", () =>
    expect(
      parseShellLcSingleCommandPrefix(["bash", "-lc", "echo hello > /tmp/out.txt && cat /tmp/out.txt"], bash),
    ).toBeUndefined());
  it("parse_shell_lc_single_command_prefix_rejects_herestring_with_substitution", () =>
    expect(parseShellLcSingleCommandPrefix(["bash", "-lc", 'python3 <<< "$(rm -rf /)"'], bash)).toBeUndefined());
  it("parse_shell_lc_single_command_prefix_rejects_arithmetic_shift_non_heredoc_script", () =>
    expect(parseShellLcSingleCommandPrefix(["bash", "-lc", "echo $((1<<2))"], bash)).toBeUndefined());
  it("parse_shell_lc_single_command_prefix_rejects_heredoc_command_with_word_expansion", () =>
    expect(
      parseShellLcSingleCommandPrefix(["bash", "-lc", "python3 $((1<<2)) <<'PY'\nprint('hello')\nPY"], bash),
    ).toBeUndefined());
});

describe("core/src/exec_policy_tests.rs commands_for_exec_policy", () => {
  it("commands_for_exec_policy_falls_back_for_empty_shell_script", () => {
    expect(commandsForExecPolicy(["bash", "-lc", ""], bash)).toEqual({
      commands: [["bash", "-lc", ""]],
      complex: false,
      how: "whole",
    });
  });
  it("commands_for_exec_policy_falls_back_for_whitespace_shell_script", () => {
    const command = ["bash", "-lc", "  \n\t  "];
    expect(commandsForExecPolicy(command, bash)).toEqual({ commands: [command], complex: false, how: "whole" });
  });
  it("a heredoc command is reduced to its words and marked complex", () => {
    expect(commandsForExecPolicy(["bash", "-lc", "python3 <<'PY'\nprint('hello')\nPY"], bash)).toEqual({
      commands: [["python3"]],
      complex: true,
      how: "heredoc",
    });
  });
  it("only three-word bash|zsh|sh -c|-lc calls are looked into", () => {
    expect(commandsForExecPolicy(["bash", "-lc", "git", "status"], bash).how).toBe("whole");
    expect(commandsForExecPolicy(["bash", "-x", "ls"], bash).how).toBe("whole");
    expect(commandsForExecPolicy(["/bin/bash", "-c", "ls && pwd"], bash).commands).toEqual([["ls"], ["pwd"]]);
    expect(commandsForExecPolicy(["fish", "-c", "ls"], bash).how).toBe("whole");
  });
  it("words are taken raw, as Codex takes them (no escape processing)", () => {
    expect(seq('echo "a\\"b" c\\ d')).toEqual([["echo", 'a\\"b', "c\\ d"]]);
  });
});

describe("shell_detect.rs detect_shell_type", () => {
  it.each([
    ["bash", true],
    ["zsh", true],
    ["sh", true],
    ["/bin/bash", true],
    ["/usr/bin/zsh", true],
    ["bash.exe", true],
    ["pwsh", false],
    ["cmd", false],
    ["fish", false],
    [".bash", false],
  ])("%s → %s", (p, want) => expect(isPosixShell(p)).toBe(want));
});
