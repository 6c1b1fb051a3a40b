import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { z, ZodError, type ZodType } from "zod";
import { getDb, type Db } from "@/db/client";
import { hasRole, PERSON_ONLY, type AgentActor, type HumanActor, type Role } from "@/lib/auth/actor";
import { actorFromAgentToken } from "@/lib/auth/agent-tokens";
import { isDeveloperCredential, isLocalCredential } from "@/lib/auth/local-credential";
import { actorFromSessionToken } from "@/lib/auth/sessions";
import { AppError, statusOf, TooManyRequestsError, ValidationError } from "@/lib/errors";
import { AGENT_BODY_LIMIT, PEOPLE_BODY_LIMIT, readJsonBody } from "./body";
import { sessionTokenFrom } from "@/lib/auth/cookies";
import { env } from "@/lib/config/env";
import { csrfRefusal, isUnsafeMethod } from "./csrf";

/** The origin of COCKPIT_PUBLIC_URL, when set: the Origin check accepts it (a proxy may rewrite Host). */
function configuredOrigin(): string | null {
  const url = env().COCKPIT_PUBLIC_URL;
  return url ? new URL(url).origin : null;
}

/** Who may call a route: nobody signed in, an agent token, or a person/CLI with at least this role. */
export type Access = "public" | "agent" | Role;

/** The actor a handler gets: none on public routes, the agent on agent routes, a person or the local CLI otherwise. */
export type ActorFor<A extends Access> = A extends "public" ? null : A extends "agent" ? AgentActor : HumanActor;

export interface RouteArgs<Q, B, P, A extends Access = Access> {
  req: NextRequest;
  db: Db;
  actor: ActorFor<A>;
  query: Q;
  body: B;
  params: P;
}

interface RouteOptions<Q, B, P, A extends Access> {
  access: A;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  params?: ZodType<P>;
  /** Largest body accepted (413 beyond); default 64 KiB for people's routes, 1 MiB for agent routes. */
  bodyLimit?: number;
  /**
   * A door: the route yields a session, a person, a credential, a remembered allow or an answer, or changes how
   * approvals are proven. Only a person's own web session passes (403 for the local CLI credential and agent
   * tokens, before the body is read). app/api/person-only-routes.test.ts lists every such route.
   */
  person?: boolean;
}

/** What a route handler declares, readable by the route inventory test. */
export interface RouteMeta {
  access: Access;
  person: boolean;
}
export type RouteHandler = ((req: NextRequest, ctx: Ctx) => Promise<Response>) & { meta: RouteMeta };

type Ctx = { params: Promise<Record<string, string | string[]>> };

export function json(data: unknown, status = 200, headers?: HeadersInit): NextResponse {
  return NextResponse.json(data, { status, headers: { "cache-control": "no-store", ...headers } });
}

/** The stable `code` of a refusal route() writes itself (before a handler runs), by its status. */
const CODE_OF_STATUS: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  413: "too_large",
  415: "unsupported_media_type",
  429: "too_many_requests",
  500: "internal",
};

/** An error answer: `{ error, code, details? }` (ADR 0007), plus any fields a route's contract adds beside them. */
export function errorResponse(status: number, error: string, extra?: Record<string, unknown>): NextResponse {
  return json({ error, code: CODE_OF_STATUS[status] ?? "error", ...extra }, status);
}

/** The body for a typed error: its message, its code and its details when it has them. */
function appErrorBody(error: AppError): { error: string; code: string; details?: unknown } {
  return { error: error.message, code: error.code, ...(error.details !== undefined ? { details: error.details } : {}) };
}

/** The answer for a typed error, with its status. */
export function appErrorResponse(error: AppError): NextResponse {
  return json(appErrorBody(error), error.status);
}

/** 429 with Retry-After (whole seconds). */
export function tooMany(waitMs: number): NextResponse {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return tooManyResponse(new TooManyRequestsError(`too many attempts; try again in ${seconds} s`, seconds));
}

/** 429 with Retry-After; `retryAfter` (seconds) stays beside `details` for the pages that read it there. */
function tooManyResponse(error: TooManyRequestsError): NextResponse {
  return json({ ...appErrorBody(error), retryAfter: error.retryAfterSeconds }, 429, {
    "retry-after": String(error.retryAfterSeconds),
  });
}

/** 413/400 for a body; a 413 closes the connection so the rest of a huge upload is not drained. */
export function bodyRefusal(refusal: { status: number; reason: string }): NextResponse {
  const body = { error: refusal.reason, code: CODE_OF_STATUS[refusal.status] ?? "error" };
  return json(body, refusal.status, refusal.status === 413 ? { connection: "close" } : undefined);
}

function bearer(req: NextRequest): string | null {
  const header = req.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

/** Finds the caller. Bearer credentials are not ambient, so only cookie callers get the CSRF check. */
async function authenticate(req: NextRequest, db: Db, access: Access): Promise<AgentActor | HumanActor | null> {
  const token = bearer(req);
  if (token) {
    if (access === "agent") return actorFromAgentToken(db, token);
    if (isLocalCredential(token)) return { kind: "local", name: "local-cli" };
    if (isDeveloperCredential(token)) return { kind: "local", name: "local-cli", developer: true };
    // A valid agent token is recognised so it gets a 403 with a reason, not a bare 401.
    if (token.startsWith("cpa_")) return actorFromAgentToken(db, token);
    return null;
  }
  if (access === "agent") return null;
  return actorFromSessionToken(db, sessionTokenFrom(req.headers.get("cookie")), {
    userAgent: req.headers.get("user-agent"),
  });
}

/**
 * Any error a route threw, as its answer: invalid input (a zod parse) is a ValidationError (400, `invalid_request`,
 * `details.fields` per field and `details.issues`); a typed error sends `{ error, code, details? }` with its status;
 * anything else is logged and answered 500 `internal error` with nothing of its text.
 */
export function routeErrorResponse(error: unknown): NextResponse {
  if (error instanceof ZodError) {
    const flat = z.flattenError(error);
    const fields = Object.entries(flat.fieldErrors).map(([k, v]) => `${k}: ${(v as string[]).join(", ")}`);
    const reason = [...flat.formErrors, ...fields].join("; ") || "invalid request";
    const issues = error.issues.map((i) => ({ path: i.path.map(String), message: i.message }));
    // `fields` beside `details` for clients that read it there before the error body had a `code`.
    return json(
      { ...appErrorBody(new ValidationError(reason, { fields: flat.fieldErrors, issues })), fields: flat.fieldErrors },
      400,
    );
  }
  if (error instanceof TooManyRequestsError) return tooManyResponse(error);
  if (statusOf(error) >= 500) {
    console.error(error);
    return errorResponse(500, "internal error");
  }
  return appErrorResponse(error as AppError);
}

/**
 * The one wrapper every route handler goes through: authentication, role, CSRF, zod parsing of
 * params/query/body, and mapping of typed errors to status codes. A handler cannot skip a check.
 */
export function route<A extends Access, Q = undefined, B = undefined, P = undefined>(
  options: RouteOptions<Q, B, P, A>,
  handler: (args: RouteArgs<Q, B, P, A>) => Promise<Response | unknown>,
) {
  const handle = async (req: NextRequest, ctx: Ctx): Promise<Response> => {
    try {
      if (isUnsafeMethod(req.method) && options.access !== "agent" && !bearer(req)) {
        const refusal = csrfRefusal(req.method, req.headers, req.url, configuredOrigin());
        if (refusal) return errorResponse(403, refusal);
      }
      const db = await getDb();
      let actor: AgentActor | HumanActor | null = null;
      if (options.access !== "public") {
        actor = await authenticate(req, db, options.access);
        if (!actor)
          return errorResponse(401, options.access === "agent" ? "missing or invalid agent token" : "sign in required");
        if (options.access !== "agent" && actor.kind === "agent")
          return errorResponse(403, "agent tokens reach only the agent API (/api/agent/v1); this needs a person", {
            needed: options.access,
          });
        if (options.person && actor.kind !== "user")
          return errorResponse(403, `this ${PERSON_ONLY}`, { needed: "person" });
        if (options.access !== "agent" && !hasRole(actor, options.access as Role)) {
          const needed = options.access === "owner" ? "the owner" : `the ${options.access} role`;
          return errorResponse(403, `this needs ${needed}`, { needed: options.access });
        }
      }
      const rawParams = ctx?.params ? await ctx.params : {};
      const params = options.params ? options.params.parse(rawParams) : (undefined as P);
      const query = options.query
        ? options.query.parse(Object.fromEntries(req.nextUrl.searchParams))
        : (undefined as Q);
      let body = undefined as B;
      if (options.body) {
        const type = req.headers.get("content-type") ?? "";
        if (!type.toLowerCase().startsWith("application/json"))
          return errorResponse(415, "send the body as application/json");
        const limit = options.bodyLimit ?? (options.access === "agent" ? AGENT_BODY_LIMIT : PEOPLE_BODY_LIMIT);
        const raw = await readJsonBody(req, limit);
        if (!raw.ok) return bodyRefusal(raw);
        body = options.body.parse(raw.value);
      }
      const result = await handler({ req, db, actor: actor as ActorFor<A>, query, body, params });
      return result instanceof Response ? result : json(result ?? { ok: true });
    } catch (error) {
      return routeErrorResponse(error);
    }
  };
  return Object.assign(handle, { meta: { access: options.access, person: options.person === true } });
}
