import { describe, expect, it } from "vitest";
import { allCovered, coveredNotes, rememberChoices, rulesToSave } from "./covered";
import { testCard } from "@/test/support/card-view";

const npm = { rule: "Bash(npm run:*)", store: ".claude/settings.json", scope: "workspace" };
/** A card from before the chooser: its one choice is built from `remember.workspace` and `coveredBy`. */
const remember = (workspace: string[], coveredBy?: (typeof npm | null)[]) =>
  rememberChoices(
    testCard({ remember: { session: workspace, workspace, workspaceStore: ".claude/settings.local.json", coveredBy } }),
  )[0]!;

describe("covered Always-allow rules on a card", () => {
  it("nothing covered: no note, every rule is saved", () => {
    const card = remember(["Bash(npm test:*)"]);
    expect(coveredNotes(card)).toEqual([]);
    expect(rulesToSave(card)).toEqual(["Bash(npm test:*)"]);
    expect(allCovered(card)).toBe(false);
  });
  it("partly covered: the note names the rule and store, and only the rest is saved", () => {
    const card = remember(["Bash(npm run build *)", "Bash(curl x)"], [npm, null]);
    expect(rulesToSave(card)).toEqual(["Bash(curl x)"]);
    expect(allCovered(card)).toBe(false);
    expect(coveredNotes(card).map((n) => n.text)).toEqual([
      "Already allowed by Bash(npm run:*) in .claude/settings.json: Always allow does not save Bash(npm run build *) again",
    ]);
  });
  it("all covered: the call would be allowed by the existing rule", () => {
    const card = remember(["Bash(npm run build *)", "Bash(npm run lint *)"], [npm, npm]);
    expect(allCovered(card)).toBe(true);
    expect(coveredNotes(card)).toEqual([
      expect.objectContaining({
        rules: ["Bash(npm run build *)", "Bash(npm run lint *)"],
        text: "Already allowed by Bash(npm run:*) in .claude/settings.json: this call would be allowed by it",
      }),
    ]);
  });
});

describe("the remember choices of a card", () => {
  it("are the card's options, narrowest first; none when nothing can be remembered", () => {
    const verdict = { severity: "ok" as const, notes: [] };
    const options = [
      { level: "exact" as const, label: "this exact command", rules: ["Bash(kubectl delete pod x)"], verdict },
      {
        level: "subcommand" as const,
        label: "kubectl delete with any arguments",
        rules: ["Bash(kubectl delete *)"],
        verdict,
      },
    ];
    const card = testCard({
      remember: {
        session: options[0]!.rules,
        workspace: options[0]!.rules,
        workspaceStore: ".claude/settings.local.json",
        options,
      },
    });
    expect(rememberChoices(card).map((c) => c.level)).toEqual(["exact", "subcommand"]);
    expect(rememberChoices(testCard({ remember: { session: [], workspace: [], workspaceStore: null } }))).toEqual([]);
  });
});
