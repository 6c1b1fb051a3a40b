import { describe, expect, it } from "vitest";
import { normalizeMode, parseRule } from "@/lib/policy";
import { dialectOf } from "./dialects";
import { agentModules } from "./registry";

const source = { scope: "workspace" as const, store: "/w/.settings", base: "/w" };

describe("an agent's dialect is found by its id", () => {
  it("the simulator decides in the dialect of the agent whose rules it uses", () => {
    expect(dialectOf("simulator")).toBe(dialectOf("claude-code"));
  });

  it("the same object on every call, so the engine's compiled rules stay cached", () => {
    for (const m of agentModules()) expect(dialectOf(m.info.id)).toBe(dialectOf(m.info.id));
  });

  it("each dialect stamps its own agent on the rules it parses", () => {
    for (const id of ["claude-code", "commandcode", "codex"]) {
      const r = parseRule("Bash(git status)", "allow", { dialect: dialectOf(id), source });
      expect(r.ok && r.value.agent).toBe(id);
    }
  });

  it("mode spellings are the agent's own: full-auto is mevedel's yolo and no one else's", () => {
    expect(normalizeMode(dialectOf("mevedel"), "full-auto")).toEqual({ ok: true, value: "yolo" });
    expect(normalizeMode(dialectOf("commandcode"), "full-auto").ok).toBe(false);
  });
});
