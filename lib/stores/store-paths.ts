import os from "node:os";
import path from "node:path";
import type { StoreEnv } from "@/lib/config/env";
import { DEFAULT_MANAGED_SETTINGS, type StorePaths } from "./discover";

/**
 * The one place store paths are built: the workspace folder, global stores under `$HOME` (else the OS
 * home), and the managed settings file from `COCKPIT_MANAGED_SETTINGS` (unset = the platform default,
 * empty = none). The CLI, the Rules page, cards and workspace detection all use it, so a card is
 * decided against the same files the Rules page lists.
 */
export function storePaths(env: StoreEnv, workspace: string): StorePaths {
  const managed = env.COCKPIT_MANAGED_SETTINGS;
  return {
    workspace: path.resolve(workspace),
    home: path.resolve(/*turbopackIgnore: true*/ env.HOME || os.homedir()),
    managedSettingsPath: managed === undefined ? DEFAULT_MANAGED_SETTINGS : managed ? path.resolve(managed) : null,
  };
}
