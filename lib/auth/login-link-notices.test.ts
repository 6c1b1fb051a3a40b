import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDb, type OpenedDb } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { LoginLinkList, LoginLinkNotice } from "@/components/shell/login-link-notice";
import { recentLoginLinkMints } from "./login-link-notices";
import { createOwnerLoginLink, mintOwnerLoginLinkUnchecked, redeemLoginLink } from "./login-links";
import { LOCAL_CLI } from "@/test/support/auth";
import { namedActor } from "@/lib/audit";

let opened: OpenedDb;
beforeAll(async () => {
  opened = await openDb({ kind: "embedded" });
});
afterAll(async () => opened.close());

describe("CLI login-link notice", () => {
  it("records each mint in the audit log and lists the other mints of the last day on the next page load", async () => {
    const own = await createOwnerLoginLink({ db: opened.db, actor: LOCAL_CLI, input: { ttlSeconds: 60 } });
    const session = await redeemLoginLink(opened.db, { token: own.token, sessionTtlHours: 1 });
    expect(await recentLoginLinkMints(opened.db, { sessionId: session.sessionId })).toEqual([]);

    await createOwnerLoginLink({ db: opened.db, actor: LOCAL_CLI, input: { ttlSeconds: 60 } });
    const audit = await opened.db.select().from(auditEvents).where(eq(auditEvents.action, "auth.login_link_created"));
    expect(audit).toHaveLength(2);
    expect(audit[1]).toMatchObject({ actor: "local-cli" });

    const mints = await recentLoginLinkMints(opened.db, { sessionId: session.sessionId });
    expect(mints).toEqual([{ mintedAt: expect.any(Date), usedAt: null }]);
    const later = new Date(Date.now() + 25 * 3600 * 1000);
    expect(await recentLoginLinkMints(opened.db, { sessionId: session.sessionId, now: later })).toEqual([]);

    const view = mints.map((m) => ({ mintedAt: m.mintedAt.toISOString(), usedAt: null }));
    const html = renderToStaticMarkup(createElement(LoginLinkNotice, { mints: view }));
    expect(html).toContain("An unused login link was minted with the CLI");
    expect(html).toContain(`dateTime="${view[0]!.mintedAt}"`);
    expect(renderToStaticMarkup(createElement(LoginLinkNotice, { mints: [] }))).toBe("");
    // Used links are not news: only the Settings list shows them.
    const used = [{ ...view[0]!, usedAt: view[0]!.mintedAt }];
    expect(renderToStaticMarkup(createElement(LoginLinkNotice, { mints: used }))).toBe("");
    expect(renderToStaticMarkup(createElement(LoginLinkList, { mints: used }))).toContain("— used");
  });

  it("a phone-pairing link the owner made in the web app is not a CLI mint", async () => {
    const own = await createOwnerLoginLink({ db: opened.db, actor: LOCAL_CLI, input: { ttlSeconds: 60 } });
    const session = await redeemLoginLink(opened.db, { token: own.token, sessionTtlHours: 1 });
    const before = (await recentLoginLinkMints(opened.db, { sessionId: session.sessionId })).length;
    await mintOwnerLoginLinkUnchecked(opened.db, { ttlSeconds: 60, purpose: "pair", by: namedActor("local-cli") });
    expect(await recentLoginLinkMints(opened.db, { sessionId: session.sessionId })).toHaveLength(before);
    const pairAudit = await opened.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "auth.pair_link_created"));
    expect(pairAudit).toHaveLength(1);
  });
});
