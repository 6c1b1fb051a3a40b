import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The Claude Code the oracle and the end-to-end tests were written against (override: CLAUDE_CODE_ORACLE_VERSION). */
export const CLAUDE_CODE_VERSION = process.env.CLAUDE_CODE_ORACLE_VERSION ?? "2.1.332";
export const ROOT = path.resolve(import.meta.dirname, "../../..");
/** Git-ignored (`/.oracle/`): the package is about 400 MB. */
export const INSTALL_DIR = path.join(ROOT, ".oracle", "claude-code");

/** The native binary of the platform package (the npm wrapper's postinstall only copies it). */
export function claudeBinary(): string | undefined {
  const libc = process.platform === "linux" && !existsSync("/lib64/ld-linux-x86-64.so.2") ? "-musl" : "";
  const bin = path.join(
    INSTALL_DIR,
    "node_modules",
    "@anthropic-ai",
    `claude-code-${process.platform}-${process.arch}${process.arch === "x64" ? libc : ""}`,
    process.platform === "win32" ? "claude.exe" : "claude",
  );
  return existsSync(bin) ? bin : undefined;
}

export function installedVersion(): string | null {
  const bin = claudeBinary();
  if (!bin) return null;
  const out =
    spawnSync(bin, ["--version"], { encoding: "utf8", env: { PATH: "/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv })
      .stdout ?? "";
  return out.match(/^(\d+\.\d+\.\d+)/)?.[1] ?? null;
}

/**
 * Installs `@anthropic-ai/claude-code@CLAUDE_CODE_VERSION` into `.oracle/claude-code/` unless that version is
 * there already; returns the binary and how long the install took (0 when nothing was installed).
 */
export function ensureClaudeCode(log: (line: string) => void = () => {}): { bin: string; installSeconds: number } {
  if (installedVersion() === CLAUDE_CODE_VERSION) return { bin: claudeBinary()!, installSeconds: 0 };
  mkdirSync(INSTALL_DIR, { recursive: true });
  writeFileSync(path.join(INSTALL_DIR, "package.json"), JSON.stringify({ private: true, name: "claude-code-oracle" }));
  log(`installing @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} into ${path.relative(ROOT, INSTALL_DIR)}/ …`);
  const started = Date.now();
  // --ignore-scripts: the postinstall only copies the platform binary over the wrapper; we run the binary itself.
  const r = spawnSync(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--no-save",
      "--ignore-scripts",
      `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
    ],
    { cwd: INSTALL_DIR, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (r.status !== 0) throw new Error("npm install @anthropic-ai/claude-code failed");
  const bin = claudeBinary();
  if (!bin) throw new Error(`the package has no Claude Code binary for ${process.platform}-${process.arch}`);
  const installSeconds = (Date.now() - started) / 1000;
  log(`installed in ${installSeconds.toFixed(1)} s`);
  return { bin, installSeconds };
}
