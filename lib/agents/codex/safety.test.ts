/**
 * Transcribed from openai/codex `codex-rs/shell-command/src/command_safety/is_safe_command.rs` and
 * `is_dangerous_command.rs` (mod tests), each case naming its test (Linux expectations).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { bash, useCodexParsers } from "@/test/support/codex";
import { commandMightBeDangerous, isKnownSafeCommand, isSafeToCallWithExec } from "./safety";

beforeAll(useCodexParsers);

const safe = (...argv: string[]) => isKnownSafeCommand(argv, bash);

describe("is_safe_command.rs", () => {
  it("known_safe_examples", () => {
    for (const argv of [
      ["ls"],
      ["git", "status"],
      ["git", "branch"],
      ["git", "branch", "--show-current"],
      ["base64"],
      ["sed", "-n", "1,5p", "file.txt"],
      ["nl", "-nrz", "Cargo.toml"],
      ["find", ".", "-name", "file.txt"],
      ["numfmt", "1000"],
      ["tac", "Cargo.toml"],
    ])
      expect(isSafeToCallWithExec(argv), argv.join(" ")).toBe(true);
    expect(isSafeToCallWithExec(["numfmt", "1000"], { linux: false })).toBe(false);
  });
  it("git_branch_mutating_flags_are_not_safe", () => {
    expect(safe("git", "branch", "-d", "feature")).toBe(false);
    expect(safe("git", "branch", "new-branch")).toBe(false);
  });
  it("git_branch_global_options_respect_safety_rules", () => {
    expect(safe("git", "-C", ".", "branch", "--show-current")).toBe(true);
    expect(safe("git", "-C", ".", "branch", "-d", "feature")).toBe(false);
    expect(safe("bash", "-lc", "git -C . branch -d feature")).toBe(false);
  });
  it("git_first_positional_is_the_subcommand", () => expect(safe("git", "checkout", "status")).toBe(false));
  it("git_output_flags_are_not_safe", () => {
    expect(safe("git", "log", "--output=/tmp/git-log-out-test", "-n", "1")).toBe(false);
    expect(safe("git", "diff", "--output", "/tmp/git-diff-out-test")).toBe(false);
    expect(safe("git", "show", "--output=/tmp/git-show-out-test", "HEAD")).toBe(false);
  });
  it("git_global_override_flags_are_not_safe", () => {
    expect(safe("git", "-c", "core.pager=cat", "log", "-n", "1")).toBe(false);
    expect(safe("git", "-ccore.pager=cat", "status")).toBe(false);
    for (const argv of [
      ["git", "--config-env", "core.pager=PAGER", "show", "HEAD"],
      ["git", "--config-env=core.pager=PAGER", "show", "HEAD"],
      ["git", "--git-dir", ".evil-git", "diff", "HEAD~1..HEAD"],
      ["git", "--git-dir=.evil-git", "diff", "HEAD~1..HEAD"],
      ["git", "--work-tree", ".", "status"],
      ["git", "--work-tree=.", "status"],
      ["git", "--exec-path", ".git/helpers", "show", "HEAD"],
      ["git", "--exec-path=.git/helpers", "show", "HEAD"],
      ["git", "--namespace", "attacker", "show", "HEAD"],
      ["git", "--namespace=attacker", "show", "HEAD"],
      ["git", "--super-prefix", "attacker/", "show", "HEAD"],
      ["git", "--super-prefix=attacker/", "show", "HEAD"],
    ])
      expect(safe(...argv), argv.join(" ")).toBe(false);
    expect(safe("bash", "-lc", "git --git-dir=.evil-git diff HEAD~1..HEAD")).toBe(false);
  });
  it("cargo_check_is_not_safe", () => expect(safe("cargo", "check")).toBe(false));
  it("zsh_lc_safe_command_sequence", () => expect(safe("zsh", "-lc", "ls")).toBe(true));
  it("unknown_or_partial", () => {
    expect(isSafeToCallWithExec(["foo"])).toBe(false);
    expect(isSafeToCallWithExec(["git", "fetch"])).toBe(false);
    expect(isSafeToCallWithExec(["sed", "-n", "xp", "file.txt"])).toBe(false);
    for (const argv of [
      ["find", ".", "-name", "file.txt", "-exec", "rm", "{}", ";"],
      ["find", ".", "-name", "*.py", "-execdir", "python3", "{}", ";"],
      ["find", ".", "-name", "file.txt", "-ok", "rm", "{}", ";"],
      ["find", ".", "-name", "*.py", "-okdir", "python3", "{}", ";"],
      ["find", ".", "-delete", "-name", "file.txt"],
      ["find", ".", "-fls", "/etc/passwd"],
      ["find", ".", "-fprint", "/etc/passwd"],
      ["find", ".", "-fprint0", "/etc/passwd"],
      ["find", ".", "-fprintf", "/root/suid.txt", "%#m %u %p\n"],
    ])
      expect(isSafeToCallWithExec(argv), argv.join(" ")).toBe(false);
  });
  it("base64_output_options_are_unsafe", () => {
    for (const argv of [
      ["base64", "-o", "out.bin"],
      ["base64", "--output", "out.bin"],
      ["base64", "--output=out.bin"],
      ["base64", "-ob64.txt"],
    ])
      expect(isSafeToCallWithExec(argv)).toBe(false);
  });
  it("ripgrep_rules", () => {
    expect(isSafeToCallWithExec(["rg", "Cargo.toml", "-n"])).toBe(true);
    for (const argv of [
      ["rg", "--search-zip", "files"],
      ["rg", "-z", "files"],
      ["rg", "--pre", "pwned", "files"],
      ["rg", "--pre=pwned", "files"],
      ["rg", "--hostname-bin", "pwned", "files"],
      ["rg", "--hostname-bin=pwned", "files"],
    ])
      expect(isSafeToCallWithExec(argv)).toBe(false);
  });
  it("bash_lc_safe_examples", () => {
    for (const s of [
      "ls",
      "ls -1",
      "git status",
      'grep -R "Cargo.toml" -n',
      "sed -n 1,5p file.txt",
      "sed -n '1,5p' file.txt",
      "find . -name file.txt",
    ])
      expect(safe("bash", "-lc", s), s).toBe(true);
  });
  it("bash_lc_safe_examples_with_operators", () => {
    for (const s of ['grep -R "Cargo.toml" -n || true', "ls && pwd", "echo 'hi' ; ls", "ls | wc -l"])
      expect(safe("bash", "-lc", s), s).toBe(true);
  });
  it("bash_lc_unsafe_examples", () => {
    expect(safe("bash", "-lc", "git", "status")).toBe(false);
    expect(safe("bash", "-lc", "'git status'")).toBe(false);
    expect(safe("bash", "-lc", "find . -name file.txt -delete")).toBe(false);
    expect(safe("bash", "-lc", "ls && rm -rf /")).toBe(false);
    expect(safe("bash", "-lc", "(ls)")).toBe(false);
    expect(safe("bash", "-lc", "ls || (pwd && echo hi)")).toBe(false);
    expect(safe("bash", "-lc", "ls > out.txt")).toBe(false);
  });
  it("a program path names the program, as Path::file_name does", () => {
    expect(safe("/bin/ls", "-la")).toBe(true);
    expect(safe("/usr/bin/git", "status")).toBe(true);
  });
});

describe("is_dangerous_command.rs", () => {
  it("rm_rf_is_dangerous", () => expect(commandMightBeDangerous(["rm", "-rf", "/"], bash)).toBe(true));
  it("rm_f_is_dangerous", () => expect(commandMightBeDangerous(["rm", "-f", "/"], bash)).toBe(true));
  it("sudo is looked through, bash -lc segments too", () => {
    expect(commandMightBeDangerous(["sudo", "rm", "-rf", "/tmp/x"], bash)).toBe(true);
    expect(commandMightBeDangerous(["bash", "-lc", "ls && rm -rf /tmp/x"], bash)).toBe(true);
    expect(commandMightBeDangerous(["rm", "-r", "x"], bash)).toBe(false);
    expect(commandMightBeDangerous(["sudo"], bash)).toBe(false);
  });
});
