import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { z } from "zod";
import { openDb, setServerDb, type OpenedDb } from "@/db/client";
import { LOCAL_CREDENTIAL_ENV } from "@/lib/auth/local-credential";
import { hashToken } from "@/lib/auth/tokens";
import { ForbiddenError, NotFoundError, StoreChangedError, TooManyRequestsError } from "@/lib/errors";
import { route } from "./route";

const LOCAL = "cpc_route-errors-credential";
let opened: OpenedDb;
beforeAll(async () => {
  process.env[LOCAL_CREDENTIAL_ENV] = hashToken(LOCAL);
  opened = await openDb({ kind: "embedded" });
  setServerDb(opened);
});
afterAll(async () => opened.close());

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
async function call(handler: Handler, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${LOCAL}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await handler(
    new NextRequest(new URL("/api/v1/test", "http://localhost:3000"), {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const throwing = (error: unknown) =>
  route({ access: "viewer" }, async () => {
    throw error;
  });

describe("route() sends { error, code, details } for every refusal", () => {
  it("invalid input: 400 invalid_request with the fields and the zod issues", async () => {
    const handler = route(
      { access: "viewer", body: z.object({ name: z.string().min(3), n: z.number() }) },
      async () => ({
        ok: true,
      }),
    );
    const r = await call(handler, { name: "x", n: "one" });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      error: expect.stringMatching(/^name: .+; n: .+/),
      code: "invalid_request",
      details: {
        fields: { name: [expect.any(String)], n: [expect.any(String)] },
        issues: [
          { path: ["name"], message: expect.any(String) },
          { path: ["n"], message: expect.any(String) },
        ],
      },
    });
  });

  it("not found: 404 not_found, no details when the error has none", async () => {
    const r = await call(throwing(new NotFoundError("no card 42")));
    expect(r).toMatchObject({ status: 404, body: { error: "no card 42", code: "not_found" } });
    expect(r.body).not.toHaveProperty("details");
  });

  it("forbidden: 403 forbidden with its details, from a verb and from route()'s own check", async () => {
    const verb = await call(throwing(new ForbiddenError("this needs the admin role", { needed: "admin" })));
    expect(verb).toMatchObject({
      status: 403,
      body: { error: "this needs the admin role", code: "forbidden", details: { needed: "admin" } },
    });
    // A door (person only): the local CLI credential is refused before the handler runs.
    const door = await call(route({ access: "viewer", person: true }, async () => ({ ok: true })));
    expect(door).toMatchObject({ status: 403, body: { code: "forbidden", needed: "person" } });
  });

  it("a store refusal keeps its kind; 429 keeps Retry-After; a crash says nothing of itself", async () => {
    expect(await call(throwing(new StoreChangedError()))).toMatchObject({
      status: 409,
      body: { error: "changed on disk — refresh", code: "conflict", details: { kind: "changed-on-disk" } },
    });
    const many = await call(throwing(new TooManyRequestsError("slow down", 7)));
    expect(many).toMatchObject({
      status: 429,
      body: { code: "too_many_requests", retryAfter: 7, details: { retryAfter: 7 } },
    });
    expect(many.headers.get("retry-after")).toBe("7");
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const crash = await call(throwing(new Error("secret path /etc/x")));
      expect(crash).toEqual(expect.objectContaining({ status: 500 }));
      expect(crash.body).toEqual({ error: "internal error", code: "internal" });
    } finally {
      quiet.mockRestore();
    }
  });
});
