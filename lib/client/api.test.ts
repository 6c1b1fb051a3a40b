import { afterEach, describe, expect, it, vi } from "vitest";
import { answerCard, AnswerError, fetchCard, NO_ANSWER, request } from "./api";

const signed = { id: "cred", response: { signature: "sig" } };
vi.mock("@simplewebauthn/browser", () => ({
  startAuthentication: vi.fn(async () => signed),
  startRegistration: vi.fn(async () => signed),
}));

afterEach(() => vi.unstubAllGlobals());

describe("request", () => {
  it("sends JSON with its content type, same-origin, uncached", async () => {
    const fetch = vi.fn(async () => Response.json({ ok: true }, { status: 201 }));
    vi.stubGlobal("fetch", fetch);
    expect(await request("/api/x", { body: { a: 1 } })).toEqual({ ok: true, status: 201, data: { ok: true } });
    expect(fetch).toHaveBeenCalledWith("/api/x", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
      signal: undefined,
      cache: "no-store",
    });
  });

  it("reads the error field and refusal kind, or names the status", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ error: "no", details: { kind: "locked" } }, { status: 409 }));
    expect(await request("/api/x")).toMatchObject({ ok: false, status: 409, error: "no", kind: "locked" });
    vi.stubGlobal("fetch", async () => new Response("oops", { status: 502 }));
    expect(await request("/api/x")).toMatchObject({ ok: false, status: 502, error: "request failed (502)" });
  });

  it("a server that does not answer is status 0 with a readable reason; an abort still throws", async () => {
    vi.stubGlobal("fetch", async () => Promise.reject(new TypeError("Failed to fetch")));
    expect(await request("/api/x")).toMatchObject({ ok: false, status: 0, error: NO_ANSWER });
    vi.stubGlobal("fetch", async () => Promise.reject(new DOMException("aborted", "AbortError")));
    await expect(request("/api/x")).rejects.toThrow("aborted");
  });

  it("card queries throw AnswerError carrying the card a 409 returns", async () => {
    const card = { id: "c1" };
    vi.stubGlobal("fetch", async () => Response.json({ error: "changed", card }, { status: 409 }));
    const error = await fetchCard("c1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnswerError);
    expect(error).toMatchObject({ message: "changed", status: 409, card });
  });
});

describe("answerCard in a workspace whose approvals need a passkey", () => {
  it("on 403 needsPasskey, signs this card's options with the passkey and retries with the assertion", async () => {
    const calls: { url: string; body: unknown }[] = [];
    const fetch = vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url, body });
      if (url.endsWith("/passkey-options")) return Response.json({ challenge: "ch" });
      if (!body.passkey)
        return Response.json({ error: "needs a passkey", details: { needsPasskey: true } }, { status: 403 });
      return Response.json({ card: { id: "c1" } });
    });
    vi.stubGlobal("fetch", fetch);
    const result = await answerCard("c1", { outcome: "allow", remember: "once", hash: "h" });
    expect(result).toEqual({ card: { id: "c1" } });
    expect(calls.map((c) => c.url)).toEqual([
      "/api/v1/cards/c1/answer",
      "/api/v1/cards/c1/passkey-options",
      "/api/v1/cards/c1/answer",
    ]);
    expect(calls[1]!.body).toEqual({ outcome: "allow", remember: "once" });
    expect(calls[2]!.body).toMatchObject({ outcome: "allow", hash: "h", passkey: signed });
  });

  it("another 403 is thrown as is, without a passkey prompt", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ error: "needs the approver role" }, { status: 403 }));
    await expect(answerCard("c1", { outcome: "deny", remember: "once", hash: "h" })).rejects.toMatchObject({
      status: 403,
      message: "needs the approver role",
    });
  });
});
