import { describe, expect, it } from "vitest";
import { DisplayName, displayNameProblem } from "./names";

describe("display names", () => {
  it.each([
    "owner",
    "Owner",
    " OWNER ",
    "local-cli",
    "Local CLI",
    "local_cli",
    "agent:ci",
    "Agent: claude",
    "system",
    "system:expiry",
    "policy",
    "expiry",
    "ｏｗｎｅｒ",
    "Bob (owner)",
    "Ada\u202e",
    "A\u200bda",
  ])("refuses %j", (name) => {
    expect(displayNameProblem(name.trim())).not.toBeNull();
    expect(DisplayName.safeParse(name).success).toBe(false);
  });

  it.each(["Ada", "Bob Smith", "Zoë", "Owen", "李雷", "O'Brien"])("accepts %j", (name) => {
    expect(displayNameProblem(name)).toBeNull();
    expect(DisplayName.parse(` ${name} `)).toBe(name);
  });
});
