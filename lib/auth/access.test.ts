import { describe, expect, it } from "vitest";
import {
  PERMISSIONS,
  PERSON_PERMISSIONS,
  can,
  canManagePerson,
  requireCan,
  roleIn,
  visibleWorkspaces,
  type Permission,
} from "./access";
import type { Actor, Grant, PersonActor } from "./actor";

const person = (grants: Grant[], owner = false): PersonActor => ({
  kind: "user",
  userId: owner ? "u-owner" : "u1",
  name: owner ? "owner" : "ann",
  owner,
  grants,
  sessionId: "s1",
  signIn: "invite",
  device: null,
  channel: "web",
});
const owner = person([], true);
const local: Actor = { kind: "local", name: "local-cli" };
const agent: Actor = { kind: "agent", tokenId: "t1", workspaceId: "w1", name: "bot" };
const viewer = person([{ workspace: "w1", role: "viewer" }]);
const approver = person([{ workspace: "w1", role: "approver" }]);
const admin = person([{ workspace: "w1", role: "admin" }]);
const adminW2 = person([{ workspace: "w2", role: "admin" }]);
const adminAll = person([{ workspace: "all", role: "admin" }]);
const mixed = person([
  { workspace: "w1", role: "viewer" },
  { workspace: "all", role: "approver" },
]);
const nobody = person([]);

const byRole = { viewer: ["viewer", "approver", "admin"], approver: ["approver", "admin"], admin: ["admin"] };

describe("can(actor, action, workspace)", () => {
  // One row per (actor, action) on workspace w1: the expected answer follows from the roles table.
  const actors: [string, Actor, string | null][] = [
    ["viewer of w1", viewer, "viewer"],
    ["approver of w1", approver, "approver"],
    ["admin of w1", admin, "admin"],
    ["admin of w2", adminW2, null],
    ["admin of all", adminAll, "admin"],
    ["viewer w1 + approver all", mixed, "approver"],
    ["no grants", nobody, null],
  ];
  const rows = actors.flatMap(([label, actor, role]) =>
    (Object.keys(PERMISSIONS) as Permission[])
      .filter((a) => PERMISSIONS[a] !== "owner")
      .map((action) => {
        const needed = PERMISSIONS[action] as keyof typeof byRole;
        return [label, action, actor, role !== null && byRole[needed].includes(role)] as const;
      }),
  );
  it.each(rows)("%s → %s in w1", (_label, action, actor, expected) => {
    expect(can(actor, action, "w1").ok).toBe(expected);
  });

  it("the owner can do everything everywhere; the local CLI everything but the person-only doors", () => {
    for (const action of Object.keys(PERMISSIONS) as Permission[])
      for (const ws of ["w1", "w2", null]) {
        expect(can(owner, action, ws)).toMatchObject({ ok: true, role: "owner" });
        expect(can(local, action, ws).ok).toBe(!PERSON_PERMISSIONS.has(action));
      }
    expect(can(local, "owner.pair", null)).toMatchObject({ ok: false, reason: expect.stringMatching(/person/) });
  });

  it("server-wide actions count only grants on all workspaces", () => {
    expect(can(admin, "workspace.manage", null).ok).toBe(false);
    expect(can(adminAll, "workspace.manage", null).ok).toBe(true);
    expect(can(adminAll, "owner.pair", null).ok).toBe(false);
  });

  it("agents: only agent actions, only in their workspace", () => {
    expect(can(agent, "card.admit", "w1").ok).toBe(true);
    expect(can(agent, "card.admit", "w2").ok).toBe(false);
    expect(can(agent, "card.view", "w1").ok).toBe(false);
    expect(can(agent, "card.answer", "w1").ok).toBe(false);
    expect(can(owner, "card.admit", "w1").ok).toBe(false);
    expect(can(local, "card.admit", "w1").ok).toBe(true);
  });

  it("a refusal names the role needed", () => {
    const d = can(viewer, "card.answer", "w1");
    expect(d).toMatchObject({ ok: false, needed: "approver" });
    expect(!d.ok && d.reason).toMatch(/needs the approver role in workspace w1 \(you are viewer\)/);
    expect(() => requireCan(approver, "entry.revoke", "w1")).toThrow(/needs the admin role/);
    try {
      requireCan(approver, "entry.revoke", "w1");
    } catch (e) {
      expect((e as { status: number }).status).toBe(403);
    }
  });

  it("roleIn takes the strongest applicable grant", () => {
    expect(roleIn(mixed, "w1")).toBe("approver");
    expect(roleIn(mixed, "w9")).toBe("approver");
    expect(roleIn(admin, "w2")).toBeNull();
    expect(roleIn(agent, "w1")).toBeNull();
  });

  it("visible workspaces", () => {
    expect(visibleWorkspaces(owner)).toBe("all");
    expect(visibleWorkspaces(adminAll)).toBe("all");
    expect(visibleWorkspaces(admin)).toEqual(["w1"]);
    expect(visibleWorkspaces(nobody)).toEqual([]);
    expect(visibleWorkspaces(agent)).toEqual(["w1"]);
  });

  it("managing people: nobody manages the owner; admins manage only within their workspaces", () => {
    expect(canManagePerson(adminAll, { owner: true, grants: [] }).ok).toBe(false);
    expect(canManagePerson(owner, { owner: true, grants: [] }).ok).toBe(false);
    expect(canManagePerson(admin, { owner: false, grants: [{ workspace: "w1", role: "approver" }] }).ok).toBe(true);
    expect(
      canManagePerson(admin, {
        owner: false,
        grants: [
          { workspace: "w1", role: "approver" },
          { workspace: "w2", role: "viewer" },
        ],
      }).ok,
    ).toBe(false);
    expect(canManagePerson(admin, { owner: false, grants: [{ workspace: "all", role: "viewer" }] }).ok).toBe(false);
    expect(canManagePerson(adminAll, { owner: false, grants: [{ workspace: "all", role: "admin" }] }).ok).toBe(true);
    expect(canManagePerson(approver, { owner: false, grants: [{ workspace: "w1", role: "viewer" }] }).ok).toBe(false);
  });
});

describe("passkey relying party", () => {
  it("is the public URL's host, with a loopback address replaced by localhost (WebAuthn refuses IP addresses)", async () => {
    const { relyingParty } = await import("./passkeys");
    expect(relyingParty("https://cockpit.example.com")).toMatchObject({
      rpID: "cockpit.example.com",
      origin: "https://cockpit.example.com",
    });
    expect(relyingParty("http://127.0.0.1:3000")).toMatchObject({ rpID: "localhost", origin: "http://localhost:3000" });
    expect(relyingParty("http://[::1]:3000")).toMatchObject({ rpID: "localhost", origin: "http://localhost:3000" });
  });
});
