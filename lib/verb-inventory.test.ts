/**
 * Verbs cannot skip their check (issue 21, docs/conventions.md "The shape of a verb"): every exported function of a
 * verb folder that takes the caller's `actor` takes it as a required parameter and asks the access model — `can()`
 * or `requireCan()` (lib/auth/access.ts), directly or through a helper that does — before it answers. Route handlers
 * reach the database only through verbs (the `db` route() hands them), never by importing it.
 */
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { callsOf, functionsOf, importsOf, parse, sources } from "@/test/support/source-scan";

/** The folders whose exported functions are verbs (layers "access" and "verbs" of ADR 0006). */
const VERB_FOLDERS = [
  "lib/auth",
  "lib/audit",
  "lib/cards",
  "lib/entries",
  "lib/notify",
  "lib/workspaces",
  "lib/session-entries",
];
/** The access model itself: it defines the checks. */
const ACCESS_MODEL = new Set(["lib/auth/access.ts", "lib/auth/actor.ts"]);

/**
 * Functions that take an actor but are not access-checked verbs, with the reason. The list only shrinks: an entry
 * whose function now checks (or is gone) fails the last test below.
 */
const NOT_A_CHECKED_VERB: Record<string, string> = {
  "lib/auth/invites.ts#me": "describes the caller to itself (roles it already holds), nothing else",
  "lib/auth/sessions.ts#currentPerson": "part of authentication: route() re-reads the caller's session row with it",
  "lib/auth/passkeys.ts#requireFreshPasskey": "a check itself (the step-up), called after the verb's own check",
};

/**
 * The checks: every function the access model exports (`can`, `requireCan`, `seesWorkspace`, `visibleWorkspaces`, …)
 * and every named function of lib that calls one, directly or through another such function.
 */
function checkers(): Set<string> {
  const all = sources("lib").flatMap(functionsOf);
  const calls = new Map(all.map((f) => [`${f.file}#${f.name}`, { name: f.name, calls: callsOf(f.node) }]));
  const found = new Set([
    ...functionsOf("lib/auth/access.ts")
      .filter((f) => f.exported)
      .map((f) => f.name),
    ...PERSON_PREDICATES,
  ]);
  for (let grew = true; grew;) {
    grew = false;
    for (const { name, calls: c } of calls.values())
      if (!found.has(name) && [...c].some((n) => found.has(n))) {
        found.add(name);
        grew = true;
      }
  }
  return found;
}

/** The access predicates of lib/auth/actor.ts: a person acting on their own things (passkeys, push, sessions). */
const PERSON_PREDICATES = ["isPerson", "answersAsPerson", "hasRole"];

const ACTOR_TYPE = /^(Actor|PersonActor|AgentActor|Extract<Actor\b)/;

/** How the function takes the caller's actor: absent, required or optional. */
function actorParameter(fn: ts.FunctionLikeDeclaration, sf: ts.SourceFile): "none" | "required" | "optional" {
  for (const p of fn.parameters) {
    if (ts.isIdentifier(p.name) && p.name.text === "actor" && p.type && ACTOR_TYPE.test(p.type.getText(sf)))
      return p.questionToken || p.initializer ? "optional" : "required";
    if (ts.isObjectBindingPattern(p.name) && p.type && ts.isTypeLiteralNode(p.type)) {
      const member = p.type.members.find(
        (m): m is ts.PropertySignature =>
          ts.isPropertySignature(m) &&
          m.name.getText(sf) === "actor" &&
          !!m.type &&
          ACTOR_TYPE.test(m.type.getText(sf)),
      );
      if (!member) continue;
      const element = p.name.elements.find((e) => (e.propertyName ?? e.name).getText(sf) === "actor");
      return member.questionToken || element?.initializer ? "optional" : "required";
    }
  }
  return "none";
}

function verbs() {
  return VERB_FOLDERS.flatMap(sources)
    .filter((f) => !ACCESS_MODEL.has(f))
    .flatMap(functionsOf)
    .filter((f) => f.exported)
    .map((f) => ({ ...f, id: `${f.file}#${f.name}`, actor: actorParameter(f.node, parse(f.file)) }))
    .filter((f) => f.actor !== "none");
}

describe("verbs check access", () => {
  const all = verbs();
  const checks = checkers();

  it("finds the verbs and the checks", () => {
    expect(all.length).toBeGreaterThan(40);
    for (const helper of ["requireEndpoint", "seesWorkspace", "requireStoreRight", "auditVisibility"])
      expect(checks).toContain(helper);
  });

  it("every verb takes its actor as a required parameter, without exception", () => {
    // A function that also serves the system without a caller is two functions: the checked verb (actor required)
    // and an explicitly named unchecked reader (`getCardRowUnchecked`, `mintOwnerLoginLinkUnchecked`) that takes none.
    expect(all.filter((v) => v.actor === "optional").map((v) => v.id)).toEqual([]);
  });

  it("the unchecked system readers are named so and take no caller", () => {
    const unchecked = VERB_FOLDERS.flatMap(sources)
      .flatMap(functionsOf)
      .filter((f) => f.exported && /Unchecked$/.test(f.name));
    expect(unchecked.map((f) => f.name).sort()).toEqual(
      expect.arrayContaining(["getCardRowUnchecked", "getCardUnchecked", "mintOwnerLoginLinkUnchecked"]),
    );
    expect(unchecked.filter((f) => actorParameter(f.node, parse(f.file)) !== "none").map((f) => f.name)).toEqual([]);
  });

  it("every verb asks can() or requireCan(), directly or through a helper that does", () => {
    const unchecked = all
      .filter((v) => !(v.id in NOT_A_CHECKED_VERB))
      .filter((v) => ![...callsOf(v.node)].some((n) => checks.has(n)))
      .map((v) => v.id);
    expect(unchecked).toEqual([]);
  });

  it("the list of exceptions only names functions that still need it", () => {
    const stale = Object.keys(NOT_A_CHECKED_VERB).filter((id) => {
      const v = all.find((x) => x.id === id);
      return !v || [...callsOf(v.node)].some((n) => checks.has(n));
    });
    expect(stale).toEqual([]);
  });
});

describe("route handlers", () => {
  const routes = sources("app/api").filter((f) => f.endsWith("/route.ts"));

  it("finds them", () => expect(routes.length).toBeGreaterThan(40));

  it("never import the database (they get `db` from route() and hand it to a verb)", () => {
    const direct = routes.filter((f) =>
      importsOf(f).some((i) => !i.typeOnly && (/^db\//.test(i.resolved ?? "") || /^drizzle-orm/.test(i.specifier))),
    );
    expect(direct).toEqual([]);
  });
});
