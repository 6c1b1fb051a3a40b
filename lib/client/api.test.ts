import { afterEach, describe, expect, it, vi } from "vitest";
import { AnswerError, fetchCard, NO_ANSWER, request } from "./api";

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
