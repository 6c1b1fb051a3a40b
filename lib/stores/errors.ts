/** Typed refusals of the store layer; transports map them once (CLI exit 1, HTTP 409/422/404/403). */
export class StoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The file no longer has the version the entry was listed from (or another write holds it). */
export class ConflictError extends StoreError {
  constructor(message = "changed on disk — refresh") {
    super(message);
  }
}

/** An Emacs lock `.#permissions.el` sits beside the plist: someone is editing it. */
export class StoreLockedError extends ConflictError {}

/** The store does not parse or has the wrong shape; it is never written. */
export class InvalidStoreError extends StoreError {}

/** A path component of the store is a symbolic link: writes fail closed. */
export class SymlinkRefusedError extends StoreError {}

/** No entry (or store) with that id. */
export class NotFoundError extends StoreError {}

/** The engine could not prove the new entry narrower than the old one. */
export class NarrowingRefusedError extends StoreError {}

/** Managed settings (and other read-only stores) are never written. */
export class ReadOnlyStoreError extends StoreError {}

/** Input to a write (a rule, a SPEC) is malformed. */
export class InvalidInputError extends StoreError {}
