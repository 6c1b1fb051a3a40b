import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

export const dataDir = () => process.env.E2E_DATA!;

/** The test server's origin as pages see it (playwright.config.ts's baseURL), for the Origin header of API writes. */
export const appOrigin = () => `http://localhost:${process.env.E2E_PORT}`;

/** Runs the real CLI against the test server's data folder. */
export function cockpit(args: string[], input?: string): string {
  return execFileSync(process.execPath, ["bin/cockpit.mjs", ...args], {
    env: { ...process.env, COCKPIT_DATA: dataDir(), HOME: path.join(dataDir(), "home"), PORT: process.env.E2E_PORT },
    encoding: "utf8",
    input,
  });
}

/** A fresh one-time login URL, as `npx cockpit login-link` prints it (last line). */
export function freshLoginLink(): string {
  const lines = cockpit(["login-link"]).trim().split("\n");
  return lines[lines.length - 1]!;
}

/**
 * Signs the page's browser context in as the owner without loading a page: redeems a fresh login link through the
 * API the login page calls (`POST /api/auth/login`; the session cookie lands in the context), so the test's first
 * page load is the page it tests. Signing in through the login page itself is tested in foundation.spec.ts (the
 * printed link, a reused link, the page asked for) and connection.spec.ts (a notification's deep link).
 */
export async function signIn(page: Page): Promise<void> {
  const link = new URL(freshLoginLink());
  const res = await page.request.post("/api/auth/login", {
    data: { token: link.searchParams.get("token") },
    headers: { origin: link.origin },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * Record that Claude Code's trust dialog was accepted for `folder` in the test server's HOME (`~/.claude.json`,
 * `projects[path].hasTrustDialogAccepted`), as an interactive Claude Code session would: without it the folder's
 * Claude Code allow rules are held back.
 */
export function trustClaudeFolder(folder: string): void {
  const home = path.join(dataDir(), "home");
  const file = path.join(home, ".claude.json");
  let data: { projects?: Record<string, unknown> } = {};
  try {
    data = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    data = {};
  }
  data.projects = { ...data.projects, [folder]: { hasTrustDialogAccepted: true } };
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(data, null, 2));
}

export function tempFolder(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `cockpit-${prefix}-`));
}
