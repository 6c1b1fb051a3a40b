/** The demo's Gemini and Cursor parts: their files read as each agent reads them, and each script step asks a person. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { demoFiles as cursorFiles, demoScript as cursorScript } from "@/lib/agents/cursor/demo";
import { demoFiles as geminiFiles, demoScript as geminiScript } from "@/lib/agents/gemini/demo";
import { engineOf, storesOf } from "@/lib/agents/registry";
import { SimulatorScript } from "./simulate";

const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

async function workspace() {
  const root = await mkdtemp(path.join(os.tmpdir(), "demo-agents-"));
  roots.push(root);
  const ws = path.join(root, "ws");
  const home = path.join(root, "home");
  await mkdir(home, { recursive: true });
  for (const [rel, text] of Object.entries({ ...geminiFiles, ...cursorFiles })) {
    await mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
    await writeFile(path.join(ws, rel), text);
  }
  return { workspace: ws, home, etcDir: path.join(root, "etc") };
}

describe("cockpit demo: Gemini CLI and Cursor CLI", () => {
  it("lists their files (Gemini's workspace policy shown as not loaded) and every step becomes a card", async () => {
    const scope = await workspace();
    const gemini = await (await storesOf("gemini")).list(scope);
    const team = gemini.stores.find((s) => s.path.endsWith("team.toml")) as { valid: boolean; inactive?: string };
    expect(team.valid).toBe(true);
    expect(team.inactive).toMatch(/not loaded/);
    expect(gemini.entries.filter((e) => e.store.path.endsWith("team.toml"))).toHaveLength(2);
    const cursor = await (await storesOf("cursor")).list(scope);
    expect(cursor.entries.map((e) => e.rule)).toEqual([
      "Shell(git)",
      "Shell(npm:test)",
      "Read(src/**)",
      "Shell(rm)",
      "Read(.env*)",
    ]);

    for (const raw of [geminiScript(scope.workspace), cursorScript()]) {
      const script = SimulatorScript.parse(raw);
      const snapshot = await (await engineOf(script.agent)).load({ paths: scope });
      for (const step of script.steps) {
        if (!("tool" in step)) continue;
        const d = snapshot.decideAsked({ call: { tool: step.tool, input: step.input } }).decision;
        expect([script.agent, step.tool, d.decision]).toEqual([script.agent, step.tool, "ask"]);
      }
    }
    // The Cursor step allowed only by reading each segment says so.
    const snap = await (await engineOf("cursor")).load({ paths: scope });
    const both = snap.decide({ call: { tool: "Shell", input: { command: "git status && git log --oneline" } } });
    expect(both.decision.reason).toMatch(/^inferred: /);
  });
});
