import { describe, expect, it } from "vitest";
import { EXIT_CODES, exitCodeOf } from "@/lib/cli/exit-codes";
import {
  AppError,
  ConflictError,
  EntryNotFoundError,
  ForbiddenError,
  InvalidInputError,
  InvalidStoreError,
  NarrowingRefusedError,
  NotFoundError,
  ReadOnlyStoreError,
  statusOf,
  StoreChangedError,
  StoreLockedError,
  SymlinkRefusedError,
  UnprocessableError,
  ValidationError,
} from "./index";

describe("one error set", () => {
  it.each([
    [new StoreChangedError(), ConflictError, 409, "conflict", 1, "changed-on-disk"],
    [new StoreLockedError("locked"), ConflictError, 409, "conflict", 1, "locked"],
    [new SymlinkRefusedError("link"), ConflictError, 409, "conflict", 1, "symlink"],
    [new InvalidStoreError("bad"), UnprocessableError, 422, "unprocessable", 1, "invalid-store"],
    [new NarrowingRefusedError("wider"), UnprocessableError, 422, "unprocessable", 1, "not-narrower"],
    [new InvalidInputError("bad rule"), ValidationError, 400, "invalid_request", 2, "invalid-input"],
    [new ReadOnlyStoreError("managed"), ForbiddenError, 403, "forbidden", 1, "read-only"],
    [new EntryNotFoundError("gone"), NotFoundError, 404, "not_found", 1, "not-found"],
  ] as const)(
    "a store refusal (%s) is its general class, with its status, code, exit code and refusal kind",
    (error, general, status, code, exitCode, kind) => {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toBeInstanceOf(general);
      expect(statusOf(error)).toBe(status);
      expect(error.code).toBe(code);
      expect(exitCodeOf(error)).toBe(exitCode);
      expect(error.details).toEqual({ kind });
      expect(error.name).toBe(error.constructor.name);
    },
  );

  it("invalid input has one mapping: 400 invalid_request over HTTP, a usage error (exit 2) in the CLI", () => {
    for (const error of [new InvalidInputError("invalid rule: Bash("), new ValidationError("unknown agent")]) {
      expect(statusOf(error)).toBe(400);
      expect(error.code).toBe("invalid_request");
      expect(exitCodeOf(error)).toBe(2);
    }
    expect(exitCodeOf(new StoreChangedError())).toBe(1);
  });

  it("every code an AppError in lib/errors carries has an exit code", async () => {
    const all = await import("./index");
    for (const value of Object.values(all)) {
      if (typeof value !== "function" || !(value.prototype instanceof AppError)) continue;
      const error = new (value as new (m: string, d?: unknown) => AppError)("x", 1);
      expect(EXIT_CODES[error.code], `${value.name} → ${error.code}`).toBeDefined();
    }
  });

  it("maps by properties, never by class name", () => {
    class ConflictErrorLookalike extends Error {}
    const impostor = new ConflictErrorLookalike("x");
    impostor.name = "ConflictError";
    expect(statusOf(impostor)).toBe(500);
    expect(exitCodeOf(impostor)).toBeNull();
    expect(statusOf(new ConflictError("taken"))).toBe(409);
    expect(exitCodeOf(new ValidationError("bad"))).toBe(2);
    expect(statusOf("not an error")).toBe(500);
  });
});
