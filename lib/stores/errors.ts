import { AppError } from "@/lib/errors";

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

/**
 * Typed refusals of the store layer. They are AppErrors: each carries its HTTP status, its CLI exit
 * code and `details.kind` (RefusalKind), so the HTTP route and the CLI map them like any other error.
 */
export abstract class StoreError extends AppError {
  static readonly kind: RefusalKind = "invalid-store";
  declare readonly details: { kind: RefusalKind };
  constructor(message: string) {
    super(message, { kind: (new.target as unknown as typeof StoreError).kind });
  }
}

/** The file no longer has the version the entry was listed from (or another write holds it). */
export class ConflictError extends StoreError {
  static override readonly kind: RefusalKind = "changed-on-disk";
  override readonly status = 409;
  override readonly code = "conflict";
  constructor(message = "changed on disk — refresh") {
    super(message);
  }
}

/** An Emacs lock `.#permissions.el` sits beside the plist: someone is editing it. */
export class StoreLockedError extends ConflictError {
  static override readonly kind: RefusalKind = "locked";
}

/** The store does not parse or has the wrong shape; it is never written. */
export class InvalidStoreError extends StoreError {
  static override readonly kind: RefusalKind = "invalid-store";
  override readonly status = 422;
  override readonly code = "unprocessable";
}

/** A path component of the store is a symbolic link: writes fail closed. */
export class SymlinkRefusedError extends StoreError {
  static override readonly kind: RefusalKind = "symlink";
  override readonly status = 409;
  override readonly code = "conflict";
}

/** No entry (or store) with that id. */
export class NotFoundError extends StoreError {
  static override readonly kind: RefusalKind = "not-found";
  override readonly status = 404;
  override readonly code = "not_found";
}

/** The engine could not prove the new entry narrower than the old one. */
export class NarrowingRefusedError extends StoreError {
  static override readonly kind: RefusalKind = "not-narrower";
  override readonly status = 422;
  override readonly code = "unprocessable";
}

/** Managed settings (and other read-only stores) are never written. */
export class ReadOnlyStoreError extends StoreError {
  static override readonly kind: RefusalKind = "read-only";
  override readonly status = 403;
  override readonly code = "forbidden";
}

/** Input to a write (a rule, a SPEC) is malformed: 422 over HTTP, a usage error (exit 2) in the CLI. */
export class InvalidInputError extends StoreError {
  static override readonly kind: RefusalKind = "invalid-input";
  override readonly status = 422;
  override readonly code = "unprocessable";
  override readonly exitCode = 2;
}
