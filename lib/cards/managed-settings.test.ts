import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listWorkspaceEntries } from "@/lib/entries";
import { admitCard } from "./admit-card";
import { bash, cardFixture, OWNER, type CardFixture } from "@/test/support/cards";

// Cards and the Rules page build their store paths with the same `storePaths`: a managed deny named by
// COCKPIT_MANAGED_SETTINGS decides a card exactly as the Rules page lists it (cards used the platform
// default path before, whatever the variable said).
let f: CardFixture;
const saved = { home: process.env.HOME, managed: process.env.COCKPIT_MANAGED_SETTINGS };
let managed: string;
beforeAll(async () => {
  f = await cardFixture();
  managed = path.join(f.home, "..", "managed-settings.json");
  writeFileSync(managed, JSON.stringify({ permissions: { deny: ["Bash(curl:*)"] } }));
  f.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(curl:*)"] } }));
  process.env.HOME = f.home;
  process.env.COCKPIT_MANAGED_SETTINGS = managed;
});
afterAll(async () => {
  process.env.HOME = saved.home;
  if (saved.managed === undefined) delete process.env.COCKPIT_MANAGED_SETTINGS;
  else process.env.COCKPIT_MANAGED_SETTINGS = saved.managed;
  await f.cleanup();
});

describe("COCKPIT_MANAGED_SETTINGS", () => {
  it("a managed deny decides a card the same as the Rules page lists it", async () => {
    const listing = await listWorkspaceEntries({ db: f.opened.db, actor: OWNER, input: { workspace: f.workspaceId } });
    const listed = listing.entries.find((e) => e.scope === "managed");
    expect(listed).toMatchObject({ action: "deny", rule: "Bash(curl:*)", store: { path: managed } });

    // No override of the managed path: the card takes it from the environment like the Rules page.
    const result = await admitCard({
      db: f.opened.db,
      actor: f.agent,
      workspaceId: f.workspaceId,
      input: bash("curl https://example.com"),
      env: { now: f.env.now },
    });
    expect(result).toMatchObject({ status: "coalesced", decision: { decision: "deny", rule: listed!.rule } });
  });

  it("an empty COCKPIT_MANAGED_SETTINGS switches the managed file off for cards and the Rules page alike", async () => {
    process.env.COCKPIT_MANAGED_SETTINGS = "";
    try {
      const listing = await listWorkspaceEntries({
        db: f.opened.db,
        actor: OWNER,
        input: { workspace: f.workspaceId },
      });
      expect(listing.entries.some((e) => e.scope === "managed")).toBe(false);
      const result = await admitCard({
        db: f.opened.db,
        actor: f.agent,
        workspaceId: f.workspaceId,
        input: bash("curl https://example.com"),
        env: { now: f.env.now },
      });
      expect(result).toMatchObject({ status: "coalesced", decision: { decision: "allow", rule: "Bash(curl:*)" } });
    } finally {
      process.env.COCKPIT_MANAGED_SETTINGS = managed;
    }
  });
});
