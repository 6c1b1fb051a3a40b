/**
 * The browser's one API client: a typed function per endpoint the pages call. Response types come from lib
 * through `import type` only (erased at build time), so no server code reaches the browser bundle.
 * Every request is same-origin; bodies are JSON with `content-type: application/json` (the route wrapper
 * refuses other bodies, so a cross-site form cannot reach a handler). Failures come back as values with the
 * server's `error` text; only the card queries throw (TanStack Query expects it).
 */
import type { addWorkspaceEntry } from "@/lib/entries";
import type { EntryFilters } from "@/lib/entries/filters";
import type { WorkspaceListing } from "@/lib/entries/list-workspace-entries";
import type { narrowWorkspaceEntry } from "@/lib/entries";
import type { previewNarrowing, suggestWorkspaceNarrowings } from "@/lib/entries";
import type { revokeWorkspaceEntry } from "@/lib/entries";
import type { listAgentTokens } from "@/lib/auth/agent-tokens";
import type { CardView } from "@/lib/cards/view";
import type { DeliveryLogEntry, EndpointView, UpdateEndpointInput } from "@/lib/notify/endpoints";
import type { CreateEndpointInput } from "@/lib/notify/endpoints";
import type { TestSendResult } from "@/lib/notify/send-test";
import type { StorePresence } from "@/lib/workspaces/agent-stores";
import type { Workspace } from "@/lib/workspaces/workspaces";
import type { CollaboratorView, CreateInviteInput, InviteView, Me } from "@/lib/auth/invites";
import type { listPasskeys } from "@/lib/auth/passkeys";
import type { SessionView } from "@/lib/auth/sessions";
import type { Grant } from "@/lib/auth/actor";
import { filtersToSearch } from "@/lib/entries/filters";
import { plainError } from "./plain-errors";
import { startAuthentication, startRegistration } from "@simplewebauthn/browser";

/** A value as it arrives over JSON: dates become ISO strings. */
export type Json<T> = T extends Date
  ? string
  : T extends (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;
type Returned<F extends (...args: never[]) => unknown> = Json<Awaited<ReturnType<F>>>;

export type ApiResult<T> =
  { ok: true; status: number; data: T } | { ok: false; status: number; error: string; kind?: string; body: ErrorBody };

interface ErrorBody {
  error?: string;
  details?: { kind?: string; needsPasskey?: boolean; stepUp?: boolean };
  card?: CardView;
}

export const NO_ANSWER = "the cockpit server did not answer — check it is running";

/** One same-origin JSON request; failures carry the server's reason (status 0: the server did not answer). */
export async function request<T>(
  url: string,
  init?: { method?: string; body?: unknown; signal?: AbortSignal },
): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init?.method ?? (init?.body === undefined ? "GET" : "POST"),
      headers: init?.body === undefined ? undefined : { "content-type": "application/json" },
      body: init?.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init?.signal,
      cache: "no-store",
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    return { ok: false, status: 0, error: NO_ANSWER, body: {} };
  }
  const body = (await res.json().catch(() => ({}))) as ErrorBody;
  if (res.ok) return { ok: true, status: res.status, data: body as T };
  return {
    ok: false,
    status: res.status,
    error: body.error ?? `request failed (${res.status})`,
    kind: body.details?.kind,
    body,
  };
}

const id = (value: string) => encodeURIComponent(value);

/** A refused request as an exception, for TanStack Query (`useMutation`, `useQuery`): the server's reason and kind. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly kind?: string,
    readonly details?: ErrorBody["details"],
  ) {
    super(message);
  }
}

/** The data of a successful request, or the refusal thrown as an `ApiError`. */
export async function unwrap<T>(pending: Promise<ApiResult<T>>): Promise<T> {
  const r = await pending;
  if (!r.ok) throw new ApiError(r.error, r.status, r.kind, r.body.details);
  return r.data;
}

/**
 * Runs a sensitive change; when the server asks for a fresh passkey confirmation (403 with `details.stepUp`), the
 * browser's passkey prompt appears right there and the change is sent once more. A cancelled prompt returns the
 * server's reason.
 */
async function withStepUp<T>(run: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  const first = await run();
  if (first.ok || first.status !== 403 || !first.body.details?.stepUp) return first;
  const confirmed = await confirmWithPasskey();
  if (!confirmed.ok) return { ...first, error: `${first.error} (${confirmed.error})` };
  return run();
}

// ---- sign-in ----------------------------------------------------------------------------------

export const login = async (token: string) => {
  const r = await request<{ ok: true }>("/api/auth/login", { body: { token } });
  return r.ok ? r : { ...r, error: plainError(r.error, r.status) };
};
export const logout = () => request<{ ok: true }>("/api/auth/logout", { method: "POST" });

/** Accepts an invite on this device: the response sets the session cookie. */
export const acceptInvite = (token: string, name: string) =>
  request<{ ok: true }>("/api/auth/invite", { body: { token, name } });

type AssertionOptions = Parameters<typeof startAuthentication>[0]["optionsJSON"];
type RegistrationOptions = Parameters<typeof startRegistration>[0]["optionsJSON"];

/** A failed step as a value; a cancelled or failed browser prompt becomes the same shape. */
async function ceremony<T>(run: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  try {
    const r = await run();
    return r.ok ? r : { ...r, error: plainError(r.error, r.status) };
  } catch (error) {
    // A browser prompt that failed or was cancelled: its DOMException in plain words (status -1: not the server).
    return {
      ok: false,
      status: -1,
      error: plainError(`${(error as Error).name}: ${(error as Error).message}`),
      body: {},
    };
  }
}

/** Fetches assertion options from `url` and signs them with a passkey (the browser's WebAuthn prompt). */
async function signWithPasskey(url: string, body: unknown = {}): Promise<ApiResult<unknown>> {
  const options = await request<AssertionOptions>(url, { method: "POST", body });
  if (!options.ok) return options;
  return { ok: true, status: 200, data: await startAuthentication({ optionsJSON: options.data }) };
}

/** "Sign in with a passkey": options, the browser prompt, then the server sets the session cookie. */
export const signInWithPasskey = () =>
  ceremony(async () => {
    const signed = await signWithPasskey("/api/auth/passkey/options");
    if (!signed.ok) return signed;
    return request<{ ok: true }>("/api/auth/passkey", { body: { response: signed.data } });
  });

// ---- people, sessions, passkeys ---------------------------------------------------------------

export type PersonRow = Json<CollaboratorView>;
export type DeviceRow = Json<SessionView>;
export type PasskeyRow = Returned<typeof listPasskeys>[number];
export type { Grant };

export const fetchMe = () => request<Me>("/api/v1/me");
export const createInvite = (input: CreateInviteInput) =>
  withStepUp(() => request<{ id: string; url: string; expiresAt: string }>("/api/v1/invites", { body: input }));
export type InviteRow = Json<InviteView>;
export const fetchInvites = () => request<{ invites: InviteRow[] }>("/api/v1/invites");
export const revokeInvite = (inviteId: string) =>
  request<{ revoked: string }>(`/api/v1/invites/${id(inviteId)}`, { method: "DELETE" });
export const fetchCollaborators = () => request<{ collaborators: PersonRow[] }>("/api/v1/collaborators");
export const setCollaboratorRoles = (personId: string, roles: Grant[]) =>
  withStepUp(() => request<unknown>(`/api/v1/collaborators/${id(personId)}`, { method: "PATCH", body: { roles } }));
export const removeCollaborator = (personId: string) =>
  request<unknown>(`/api/v1/collaborators/${id(personId)}`, { method: "DELETE" });
export const fetchDevices = () => request<{ sessions: DeviceRow[] }>("/api/v1/devices");
export const endDevice = (sessionId: string) =>
  request<unknown>(`/api/v1/devices/${id(sessionId)}`, { method: "DELETE" });
/** "Pair my phone": a 10-minute single-use sign-in link for the owner's other device. */
export const pairPhone = () => request<{ url: string; expiresAt: string }>("/api/v1/pair", { method: "POST" });
export const setWorkspaceSettings = (workspaceId: string, settings: { requirePasskey: boolean }) =>
  withStepUp(() =>
    request<unknown>(`/api/v1/workspaces/${id(workspaceId)}/settings`, { method: "PUT", body: settings }),
  );

export const fetchPasskeys = () => request<{ passkeys: PasskeyRow[] }>("/api/v1/passkeys");
/** Registers a new passkey: options, the browser prompt, then the server stores the public key. */
export const addPasskey = (name: string) => withStepUp(() => registerPasskeyNow(name));
const registerPasskeyNow = (name: string) =>
  ceremony(async () => {
    const options = await request<RegistrationOptions>("/api/v1/passkeys/options", { method: "POST" });
    if (!options.ok) return options;
    const response = await startRegistration({ optionsJSON: options.data });
    return request<{ id: string; name: string }>("/api/v1/passkeys", { body: { name, response } });
  });
export const renamePasskey = (passkeyId: string, name: string) =>
  request<unknown>(`/api/v1/passkeys/${id(passkeyId)}`, { method: "PATCH", body: { name } });
export const removePasskey = (passkeyId: string) =>
  withStepUp(() => request<unknown>(`/api/v1/passkeys/${id(passkeyId)}`, { method: "DELETE" }));
/** Step-up: a fresh passkey confirmation that sensitive changes need for the next 5 minutes. */
export const confirmWithPasskey = () =>
  ceremony(async () => {
    const signed = await signWithPasskey("/api/v1/passkeys/step-up");
    if (!signed.ok) return signed;
    return request<unknown>("/api/v1/passkeys/step-up", { body: { response: signed.data } });
  });

// ---- audit ----------------------------------------------------------------------------------

/** One page of the audit timeline (`query` is the URL's filter string). */
export const fetchAuditPage = <E>(query: string, cursor: string | null, limit = 50) =>
  request<{ events: E[]; next: string | null }>(
    `/api/v1/audit?${query}${cursor ? `&cursor=${id(cursor)}` : ""}&limit=${limit}`,
  );
export const fetchAuditHistogram = <H>(query: string, buckets: number, signal?: AbortSignal) =>
  request<H>(`/api/v1/audit/histogram?buckets=${buckets}${query ? `&${query}` : ""}`, { signal });
export const verifyAuditLog = () =>
  request<{ intact: boolean; line: string }>("/api/v1/audit/verify", { method: "POST", body: {} });

// ---- workspaces -------------------------------------------------------------------------------

export type WorkspaceView = Json<Workspace> & { stores: StorePresence[] };
export const addWorkspace = (path: string) =>
  request<{ workspace: WorkspaceView }>("/api/v1/workspaces", { body: { path } });
export const removeWorkspace = (workspaceId: string) =>
  request<{ deleted: string }>(`/api/v1/workspaces/${id(workspaceId)}`, { method: "DELETE" });

// ---- agent tokens and settings ----------------------------------------------------------------

export type AgentTokenView = Returned<typeof listAgentTokens>[number];
export const createAgentToken = (input: { workspace: string; name?: string }) =>
  request<{ id: string; token: string; name: string; workspaceId: string }>("/api/v1/agent-tokens", { body: input });
export const revokeAgentToken = (tokenId: string) =>
  request<unknown>(`/api/v1/agent-tokens/${id(tokenId)}`, { method: "DELETE" });
export const setAbsenceTimeout = (timeoutSeconds: number | null) =>
  request<{ timeoutSeconds: number | null }>("/api/v1/settings/absence", { method: "PUT", body: { timeoutSeconds } });

// ---- rules (entries) --------------------------------------------------------------------------

export type { EntryView, WorkspaceListing } from "@/lib/entries/list-workspace-entries";
import type { WorkspaceHygiene } from "@/lib/entries/hygiene-workspace";
export const ENTRIES_PAGE_SIZE = 200;

/** One page of the Rules listing; throws the server's reason (the query shows it). */
export async function fetchEntriesPage(
  workspace: string,
  filters: EntryFilters,
  offset: number,
): Promise<WorkspaceListing> {
  const url = `/api/v1/entries?${filtersToSearch(workspace, filters)}&offset=${offset}&limit=${ENTRIES_PAGE_SIZE}`;
  const result = await request<WorkspaceListing>(url);
  if (!result.ok) throw new Error(result.error);
  return result.data;
}
export const addEntry = (input: {
  workspace: string;
  agent: string;
  scope: "workspace" | "global";
  action: "allow" | "ask" | "deny";
  rule: string;
  file?: string;
}) => withStepUp(() => request<{ result: Returned<typeof addWorkspaceEntry> }>("/api/v1/entries/add", { body: input }));
export const revokeEntry = (input: { workspace: string; id: string; version: string }) =>
  request<{ result: Returned<typeof revokeWorkspaceEntry> }>("/api/v1/entries/revoke", { body: input });
export const narrowEntry = (input: { workspace: string; id: string; version: string; to: string }) =>
  request<{ result: Returned<typeof narrowWorkspaceEntry> }>("/api/v1/entries/narrow", { body: input });
export const checkNarrowing = (input: { workspace: string; id: string; to: string }, signal?: AbortSignal) =>
  request<Returned<typeof previewNarrowing>>("/api/v1/entries/narrow/check", { body: input, signal });
/** Impact preview: the last 30 days' calls this entry decided, replayed with it revoked (no `to`) or narrowed. */
export const entryImpact = <I>(input: { workspace: string; id: string; to?: string }, signal?: AbortSignal) =>
  request<I>("/api/v1/entries/impact", { body: input, signal });
export const fetchHygiene = (workspace: string) =>
  request<WorkspaceHygiene>(`/api/v1/entries/hygiene?workspace=${id(workspace)}`);
/** Clean-up: without `confirm` the server only previews (diffs and proof); with the previewed versions it writes. */
export const cleanUpPreview = <P>(workspace: string) => request<P>("/api/v1/entries/clean-up", { body: { workspace } });
export const cleanUpConfirm = <P>(workspace: string, versions: Record<string, string>) =>
  request<P>("/api/v1/entries/clean-up", { body: { workspace, confirm: versions } });
export const narrowingSuggestions = (workspace: string, entryId: string) =>
  request<Returned<typeof suggestWorkspaceNarrowings>>(
    `/api/v1/entries/suggestions?workspace=${id(workspace)}&id=${id(entryId)}`,
  );

// ---- cards ------------------------------------------------------------------------------------

export type Outcome = "allow" | "deny";
export type Remember = "once" | "session" | "workspace";

/** An answer the server refused; a 409 carries the card as it now is. */
export class AnswerError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly card: CardView | null,
  ) {
    super(message);
  }
}

async function orThrow<T>(pending: Promise<ApiResult<T>>): Promise<T> {
  const result = await pending;
  if (!result.ok) throw new AnswerError(result.error, result.status, result.body.card ?? null);
  return result.data;
}

export const fetchCards = (status: "pending" | "settled" | "all", limit = 100) =>
  orThrow(request<{ cards: CardView[] }>(`/api/v1/cards?status=${status}&limit=${limit}`));
export const fetchPendingCount = () => orThrow(request<{ pending: number }>("/api/v1/cards/count"));
export const fetchCard = (cardId: string) => orThrow(request<{ card: CardView }>(`/api/v1/cards/${id(cardId)}`));

export interface AnswerInput {
  outcome: Outcome;
  remember: Remember;
  message?: string;
  hash: string;
  confirmToolWide?: boolean;
  /** Which of the card's remember choices to store (`remember.options[].level`). */
  choice?: string;
}
export interface AnswerResult {
  card: CardView;
  ruleNotSaved?: string;
}

/**
 * Every answer carries the card's hash: the server refuses it if the card changed since it was shown.
 * In a workspace whose approvals need a passkey, the server says so (403 `needsPasskey`): the browser then
 * signs a challenge derived from this card, outcome and scope with the person's passkey and retries.
 */
export async function answerCard(cardId: string, input: AnswerInput): Promise<AnswerResult> {
  const url = `/api/v1/cards/${id(cardId)}/answer`;
  const body = { ...input, message: input.message?.trim() || undefined };
  let first = await request<AnswerResult>(url, { body });
  // A tool-wide Always allow asks an admin for a fresh passkey step-up, as adding the rule on the Rules page does.
  if (!first.ok && first.status === 403 && first.body.details?.stepUp) {
    const confirmed = await confirmWithPasskey();
    if (!confirmed.ok) throw new AnswerError(`${first.error} (${confirmed.error})`, 403, null);
    first = await request<AnswerResult>(url, { body });
  }
  const needsPasskey = !first.ok && first.status === 403 && first.body.details?.needsPasskey === true;
  if (!needsPasskey) return orThrow(Promise.resolve(first));
  const signed = await ceremony(() =>
    signWithPasskey(`/api/v1/cards/${id(cardId)}/passkey-options`, {
      outcome: input.outcome,
      remember: input.remember,
    }),
  );
  if (!signed.ok) throw new AnswerError(signed.error, signed.status, null);
  return orThrow(request<AnswerResult>(url, { body: { ...body, passkey: signed.data } }));
}

/** Undo of "Always allow" (a few minutes after, by the person who answered): revokes the rules it wrote. */
export const undoRemember = (cardId: string) =>
  unwrap(
    request<{ card: CardView; revoked: string[] }>(`/api/v1/cards/${id(cardId)}/undo-remember`, {
      method: "POST",
      body: {},
    }),
  );

const displayed = new Set<string>();

/** Tells the server a person has seen the card (its "displayed" lifecycle event); once per card per page load. */
export function markDisplayed(cardId: string): void {
  if (displayed.has(cardId)) return;
  displayed.add(cardId);
  void request(`/api/v1/cards/${id(cardId)}/displayed`, { method: "POST" }).then((r) => {
    if (!r.ok && r.status === 0) displayed.delete(cardId);
  });
}

// ---- notifications ----------------------------------------------------------------------------

export type { EndpointView, DeliveryLogEntry, TestSendResult };
export const setAllowHosts = (hosts: string[]) =>
  request<{ hosts: string[]; envHosts: string[] }>("/api/v1/notify/allow-hosts", { method: "PUT", body: { hosts } });
export const createWebhook = (input: CreateEndpointInput) =>
  withStepUp(() =>
    request<{ id: string; secret: string; endpoint: EndpointView }>("/api/v1/webhooks", { body: input }),
  );
export const updateWebhook = (endpointId: string, input: UpdateEndpointInput) =>
  withStepUp(() =>
    request<{ endpoint: EndpointView }>(`/api/v1/webhooks/${id(endpointId)}`, { method: "PATCH", body: input }),
  );
export const deleteWebhook = (endpointId: string) =>
  request<{ deleted: string }>(`/api/v1/webhooks/${id(endpointId)}`, { method: "DELETE" });
export const testWebhook = (endpointId: string) =>
  request<{ result: TestSendResult }>(`/api/v1/webhooks/${id(endpointId)}/test`, { method: "POST" });
export const webhookDeliveries = (endpointId: string) =>
  request<{ deliveries: DeliveryLogEntry[] }>(`/api/v1/webhooks/${id(endpointId)}/deliveries`);
export const redeliver = (endpointId: string, deliveryId: string) =>
  request<unknown>(`/api/v1/webhooks/${id(endpointId)}/deliveries/${id(deliveryId)}/redeliver`, { method: "POST" });
export const pushKey = () => request<{ publicKey: string; devices: number }>("/api/v1/notify/push");
export const subscribePush = (input: { endpoint?: string; keys?: unknown }) =>
  request<unknown>("/api/v1/notify/push", { body: input });
export const unsubscribePush = (endpoint: string) =>
  request<unknown>("/api/v1/notify/push", { method: "DELETE", body: { endpoint } });

export type WorkspaceOption = Pick<WorkspaceView, "id" | "name" | "path">;
