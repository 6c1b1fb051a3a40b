import fs from "node:fs";
import path from "node:path";
import { devices, expect, test, type BrowserContext, type Page } from "@playwright/test";
import { cockpit, signIn, tempFolder, trustClaudeFolder } from "./helpers";

const ALLOW = { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } };
let dir: string;
let token: string;

test.beforeAll(() => {
  dir = tempFolder("collab-ws");
  trustClaudeFolder(dir);
  fs.mkdirSync(path.join(dir, ".claude"));
  fs.writeFileSync(
    path.join(dir, ".claude", "settings.json"),
    JSON.stringify({ permissions: { allow: ["Bash(npm:*)"] } }),
  );
  cockpit(["workspace", "add", dir]);
  const lines = cockpit(["agent-token", "create", "--workspace", dir]).trim().split("\n");
  token = lines[lines.length - 1]!.trim();
});

const unique = () => `${test.info().project.name}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const cardOnPage = (page: Page, marker: string) => page.getByTestId("card").filter({ hasText: marker });

/** Claude Code's HTTP hook: held open until the card settles. */
function ask(baseURL: string, command: string): Promise<unknown> {
  return fetch(`${baseURL}/api/agent/v1/hooks/claude-code`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      session_id: crypto.randomUUID(),
      cwd: dir,
      permission_mode: "default",
      hook_event_name: "PermissionRequest",
      tool_name: "Bash",
      tool_input: { command },
    }),
  }).then((r) => r.json());
}

async function virtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

test(
  "owner invites a collaborator on a phone; roles and a passkey-confirmed approval",
  { tag: "@any-viewport" },
  async ({ page, browser, baseURL }) => {
    test.setTimeout(120_000);
    await signIn(page);
    const origin = { origin: baseURL! };
    const { workspaces } = (await (await page.request.get("/api/v1/workspaces")).json()) as {
      workspaces: { id: string; path: string; name: string }[];
    };
    const ws = workspaces.find((w) => w.path === fs.realpathSync(dir))!;

    // The owner creates an invite in Settings: link and QR code.
    await page.goto("/settings");
    await page.waitForLoadState("networkidle");
    const form = page.getByRole("form", { name: "Invite someone" });
    await form.getByLabel("Role").selectOption("approver");
    await form.getByLabel("Workspace").selectOption(ws.id);
    await form.getByRole("button", { name: "Create invite link" }).click();
    await expect(page.getByRole("img", { name: "QR code: Invite link" })).toBeVisible();
    const url = await page.getByLabel("Invite link").inputValue();

    // The collaborator opens it on a phone, joins and registers a passkey. WebAuthn needs a host name, not the
    // 127.0.0.1 the server is reached by, so the phone uses localhost (the relying party the server derives).
    const local = (u: string) => u.replace("//127.0.0.1:", "//localhost:");
    const phone = await browser.newContext({ ...devices["Pixel 7"], baseURL: local(baseURL!) });
    const pat = await phone.newPage();
    await virtualAuthenticator(phone, pat);
    await pat.goto(local(url));
    await pat.waitForLoadState("networkidle");
    await pat.getByLabel("Display name").fill("Pat");
    await pat.getByRole("button", { name: "Join" }).click();
    await expect(pat).toHaveURL(/\/settings/);
    await pat.waitForLoadState("networkidle");
    await pat.getByLabel("Passkey name").fill("Pat's phone");
    await pat.getByRole("button", { name: "Add a passkey" }).click();
    await expect(pat.getByRole("status").filter({ hasText: "Passkey added." })).toBeVisible();
    await expect(pat.getByRole("list", { name: "Passkeys" })).toContainText("Pat's phone");
    // The invite link is spent.
    const again = await browser.newPage();
    await again.goto(url);
    await expect(again.getByTestId("invite-gone")).toBeVisible();
    await again.close();

    // As approver: sees only the controls the role allows (no admin buttons anywhere).
    await expect(pat.getByRole("heading", { name: "Your sessions" })).toBeVisible();
    for (const admin of ["People", "Invite someone", "Agent tokens", "Absence timeout", "Audit log"])
      await expect(pat.getByRole("heading", { name: admin, exact: true })).toHaveCount(0);
    await pat.goto(`/rules?workspace=${ws.id}`);
    await expect(pat.getByTestId("entry").first()).toBeVisible();
    await expect(pat.getByRole("button", { name: "Add rule" })).toHaveCount(0);
    await expect(pat.getByRole("button", { name: /^(Revoke|Narrow)/ })).toHaveCount(0);
    await pat.goto("/workspaces");
    await expect(pat.getByTestId("workspace").first()).toBeVisible();
    await expect(pat.getByRole("button", { name: /Add workspace|Remove/ })).toHaveCount(0);

    // As approver: answers a card, but cannot revoke an entry.
    const marker = unique();
    const held = ask(baseURL!, `git push origin ${marker}`);
    await pat.goto("/cards");
    await cardOnPage(pat, marker).getByRole("button", { name: "Allow once" }).click();
    expect(await held).toEqual(ALLOW);
    const listing = (await (await pat.request.get(`/api/v1/entries?workspace=${ws.id}`)).json()) as {
      entries: { id: string; store: { version: string } }[];
    };
    const entry = listing.entries[0]!;
    const revoke = await pat.request.post("/api/v1/entries/revoke", {
      headers: { origin: local(baseURL!) },
      data: { workspace: ws.id, id: entry.id, version: entry.store.version },
    });
    expect(revoke.status()).toBe(403);
    expect(((await revoke.json()) as { error: string }).error).toContain("admin role");

    // A viewer sees the card but cannot answer it.
    const viewerInvite = (await (
      await page.request.post("/api/v1/invites", { headers: origin, data: { role: "viewer", workspaces: [ws.id] } })
    ).json()) as { url: string };
    const viewer = await browser.newContext();
    const vToken = new URL(viewerInvite.url).searchParams.get("token");
    expect(
      (
        await viewer.request.post("/api/auth/invite", { headers: origin, data: { token: vToken, name: "Vic" } })
      ).status(),
    ).toBe(200);
    const seen = unique();
    const pending = ask(baseURL!, `git push origin ${seen}`);
    const vPage = await viewer.newPage();
    await vPage.goto("/cards");
    await expect(cardOnPage(vPage, seen)).toBeVisible({ timeout: 20_000 });
    // A viewer sees the request and why they cannot answer it, and no answer buttons.
    await expect(cardOnPage(vPage, seen).getByTestId("view-only")).toContainText("needs the approver role");
    await expect(cardOnPage(vPage, seen).getByRole("button", { name: /Allow|Deny/ })).toHaveCount(0);
    const { cards } = (await (await viewer.request.get("/api/v1/cards?status=pending")).json()) as {
      cards: { id: string; hash: string; input: { command?: string } }[];
    };
    const card = cards.find((c) => c.input.command?.includes(seen))!;
    const refused = await viewer.request.post(`/api/v1/cards/${card.id}/answer`, {
      headers: origin,
      data: { outcome: "allow", hash: card.hash },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toContain("approver role");
    await cardOnPage(pat, seen).getByRole("button", { name: "Deny" }).click();
    await pending;

    // Open invites are listed for the owner, and a revoked one stops working at once.
    const spare = (await (
      await page.request.post("/api/v1/invites", { headers: origin, data: { role: "viewer", workspaces: [ws.id] } })
    ).json()) as { id: string; url: string };
    await page.goto("/settings");
    const open = page.getByRole("list", { name: "Open invites" });
    await expect(open.getByTestId("open-invite")).not.toHaveCount(0);
    const before = await open.getByTestId("open-invite").count();
    await open
      .getByTestId("open-invite")
      .last()
      .getByRole("button", { name: /Revoke/ })
      .click();
    await expect(open.getByTestId("open-invite")).toHaveCount(before - 1);
    const gone = await browser.newPage();
    await gone.goto(spare.url);
    await expect(gone.getByTestId("invite-gone")).toBeVisible();
    await gone.close();

    // Passkey-required workspace: the approval goes through the phone's (virtual) passkey.
    expect(
      (
        await page.request.put(`/api/v1/workspaces/${ws.id}/settings`, {
          headers: origin,
          data: { requirePasskey: true },
        })
      ).status(),
    ).toBe(200);
    try {
      const strict = unique();
      const heldStrict = ask(baseURL!, `git push origin ${strict}`);
      await pat.goto("/cards");
      await cardOnPage(pat, strict).getByRole("button", { name: "Allow once" }).click();
      expect(await heldStrict).toEqual(ALLOW);
      const settled = (await (await pat.request.get("/api/v1/cards?status=settled")).json()) as {
        cards: { input: { command?: string }; settlement: { passkey?: { name: string } } }[];
      };
      const done = settled.cards.find((c) => c.input.command?.includes(strict))!;
      expect(done.settlement.passkey?.name).toBe("Pat's phone");
    } finally {
      await page.request.put(`/api/v1/workspaces/${ws.id}/settings`, {
        headers: origin,
        data: { requirePasskey: false },
      });
      await phone.close();
      await viewer.close();
    }
  },
);
