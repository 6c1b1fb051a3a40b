/**
 * The one error set (docs/decisions/0007-one-error-set.md): every typed error a verb, the CLI or a layer below
 * them (lib/stores, lib/agents) throws carries its HTTP status and a stable `code`, which gives its CLI exit code (2: bad
 * input, shown with the verb's usage; 1: a refusal, one line). lib/http sends `{ error, code, details }`;
 * lib/cli maps `code` to the exit code in one place (lib/cli/exit-codes.ts). Nothing maps by class name.
 */
export class AppError extends Error {
  readonly status: number = 500;
  readonly code: string = "internal";
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class ValidationError extends AppError {
  override readonly status = 400;
  override readonly code = "invalid_request";
}
export class ForbiddenError extends AppError {
  override readonly status = 403;
  override readonly code = "forbidden";
}
export class NotFoundError extends AppError {
  override readonly status = 404;
  override readonly code = "not_found";
}
export class ConflictError extends AppError {
  override readonly status = 409;
  override readonly code = "conflict";
}
export class GoneError extends AppError {
  override readonly status = 410;
  override readonly code = "gone";
}
export class UnprocessableError extends AppError {
  override readonly status = 422;
  override readonly code = "unprocessable";
}
/** Something the request needs is not running or not reachable (the cockpit server, for a CLI verb that needs it). */
export class UnavailableError extends AppError {
  override readonly status = 503;
  override readonly code = "unavailable";
}
/** Too many requests from one caller; `retryAfterSeconds` becomes the `Retry-After` header. */
export class TooManyRequestsError extends AppError {
  override readonly status = 429;
  override readonly code = "too_many_requests";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, { retryAfter: retryAfterSeconds });
  }
}

/** Why a store write was refused, for the page to pick its message without parsing text (`details.kind`). */
export type RefusalKind =
  | "changed-on-disk"
  | "locked"
  | "symlink"
  | "invalid-store"
  | "read-only"
  | "not-narrower"
  | "invalid-input"
  | "not-found";

// Store refusals: the classes above, with `details.kind` (RefusalKind) so the Rules page picks its message.

/** The file no longer has the version the entry was listed from (or another write holds it). */
export class StoreChangedError extends ConflictError {
  constructor(message = "changed on disk — refresh", kind: RefusalKind = "changed-on-disk") {
    super(message, { kind });
  }
}

/** An Emacs lock `.#permissions.el` sits beside the plist: someone is editing it. */
export class StoreLockedError extends StoreChangedError {
  constructor(message: string) {
    super(message, "locked");
  }
}

/** A path component of the store is a symbolic link: writes fail closed. */
export class SymlinkRefusedError extends ConflictError {
  constructor(message: string) {
    super(message, { kind: "symlink" });
  }
}

/** No entry (or store) with that id. */
export class EntryNotFoundError extends NotFoundError {
  constructor(message: string) {
    super(message, { kind: "not-found" });
  }
}

/** The store does not parse or has the wrong shape; it is never written. */
export class InvalidStoreError extends UnprocessableError {
  constructor(message: string) {
    super(message, { kind: "invalid-store" });
  }
}

/** The engine could not prove the new entry narrower than the old one. */
export class NarrowingRefusedError extends UnprocessableError {
  constructor(message: string) {
    super(message, { kind: "not-narrower" });
  }
}

/** Managed settings (and other read-only stores) are never written. */
export class ReadOnlyStoreError extends ForbiddenError {
  constructor(message: string) {
    super(message, { kind: "read-only" });
  }
}

/** Input to a store write (a rule, a SPEC, a path) is malformed: invalid input like any other (400, exit 2). */
export class InvalidInputError extends ValidationError {
  constructor(message: string) {
    super(message, { kind: "invalid-input" });
  }
}

/** HTTP status of any thrown value: an AppError's own status, else 500. */
export function statusOf(error: unknown): number {
  return error instanceof AppError ? error.status : 500;
}
