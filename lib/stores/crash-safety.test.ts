import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addEntry } from "./add-entry";
import { sweepStaleTemps } from "./atomic-write";
import { listEntries } from "./list-entries";
import { revokeEntry } from "./revoke-entry";
import { FIXTURES, makeSandbox, type Sandbox } from "@/test/support/stores";
import type { Agent } from "./types";

// F1: a writer killed with SIGKILL at random points leaves the old or the new bytes, never a mix,
// and the startup sweep clears every temp file and lock it left behind.
// 20 kills per lane: the chance that a lane never sees both states is ~1e-6; CRASH_ITERATIONS=240 for a longer run.
const ITERATIONS = Number(process.env.CRASH_ITERATIONS ?? 80);
const WORKERS = 4;
const CHILD = path.join(import.meta.dirname, "../../test/support/crash-child.ts");

interface Lane {
  sb: Sandbox;
  agent: Agent;
  file: string;
  states: Set<string>;
  stateFiles: [string, string];
}

const lanes: Lane[] = [];
let childCommand: string[] = ["--import", "tsx", CHILD];
const cleanups: (() => void)[] = [];
const cases: [Agent, string, string][] = [
  ["claude-code", ".claude/settings.json", FIXTURES.claudeTabs],
  ["commandcode", ".commandcode/settings.json", FIXTURES.commandcodeJsonc],
  ["mevedel", ".mevedel/permissions.el", FIXTURES.mevedel],
  ["claude-code", ".claude/settings.json", FIXTURES.claudeCrlf3],
];

beforeAll(async () => {
  // Bundle the child once so each spawn is a plain `node` start (~50 ms) rather than a tsx one.
  try {
    const { build } = await import("esbuild");
    const scratch = makeSandbox("crash-child-");
    cleanups.push(scratch.cleanup);
    const outfile = path.join(scratch.root, "crash-child.mjs");
    await build({
      entryPoints: [CHILD],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile,
      logLevel: "silent",
    });
    childCommand = [outfile];
  } catch {
    // esbuild comes with tsx; if it is missing the tsx spawn still works, only slower.
  }
  for (let k = 0; k < WORKERS; k++) {
    const [agent, rel, text] = cases[k % cases.length];
    const sb = makeSandbox("crash-");
    const file = sb.write(rel, text);
    // The two states the child flips between: add then revoke must restore the bytes exactly.
    const rule =
      agent === "mevedel"
        ? '("Bash" :pattern "crash test *" :action allow)'
        : agent === "commandcode"
          ? "Shell(crash test:*)"
          : "Bash(crash test:*)";
    const added = await addEntry({
      ...sb.paths,
      agent,
      scope: "workspace",
      action: "allow",
      rule,
      file: agent === "mevedel" ? undefined : "settings.json",
    });
    const withRule = readFileSync(file, "utf8");
    const entry = (await listEntries(sb.paths)).entries.find((e) => e.id === added.id)!;
    await revokeEntry({ ...sb.paths, id: entry.id, expectedVersion: entry.store.version });
    expect(readFileSync(file, "utf8")).toBe(text);
    const stateFiles: [string, string] = [path.join(sb.root, "state-a"), path.join(sb.root, "state-b")];
    writeFileSync(stateFiles[0], text);
    writeFileSync(stateFiles[1], withRule);
    lanes.push({ sb, agent, file, states: new Set([text, withRule]), stateFiles });
  }
});
afterAll(() => {
  for (const lane of lanes) lane.sb.cleanup();
  for (const cleanup of cleanups) cleanup();
});

function runAndKill(lane: Lane): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childCommand, lane.sb.workspace, lane.file, ...lane.stateFiles], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let killed = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (killed || !chunk.toString().includes("ready")) return;
      killed = true;
      setTimeout(() => child.kill("SIGKILL"), Math.random() * 40);
    });
    child.on("error", reject);
    child.on("exit", () => resolve());
  });
}

describe("crash safety (kill -9 during writes)", () => {
  it(`leaves old or new bytes after ${ITERATIONS} random kills`, { timeout: 300_000 }, async () => {
    const perLane = Math.ceil(ITERATIONS / WORKERS);
    const started = performance.now();
    let done = 0;
    const seen = new Map<Lane, Set<string>>();
    await Promise.all(
      lanes.map(async (lane) => {
        seen.set(lane, new Set());
        for (let k = 0; k < perLane; k++) {
          await runAndKill(lane);
          const bytes = readFileSync(lane.file, "utf8");
          expect(lane.states.has(bytes), `lane ${lane.file} iteration ${k}`).toBe(true);
          seen.get(lane)!.add(bytes);
          await sweepStaleTemps([path.dirname(lane.file)]);
          const leftovers = readdirSync(path.dirname(lane.file)).filter((n) => n.includes(".cockpit-"));
          expect(leftovers).toEqual([]);
          done++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `crash safety: ${done} kills in ${seconds.toFixed(1)} s; both states observed in ${[...seen.values()].filter((s) => s.size === 2).length}/${lanes.length} lanes`,
    );
    expect(done).toBeGreaterThanOrEqual(ITERATIONS);
    // The kills really landed between writes of both kinds.
    expect([...seen.values()].some((s) => s.size === 2)).toBe(true);
  });
});
