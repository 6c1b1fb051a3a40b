import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

export const dataDir = () => process.env.E2E_DATA!;

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

export async function signIn(page: Page): Promise<void> {
  await page.goto(freshLoginLink());
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
}

export function tempFolder(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `cockpit-${prefix}-`));
}
