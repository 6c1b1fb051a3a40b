import { describe, expect, it } from "vitest";
import * as stores from "@/lib/stores/errors";
import { cliFailure } from "@/lib/cli/store-support";
import { AppError, ConflictError, exitCodeOf, statusOf, ValidationError } from "./index";

describe("one error hierarchy", () => {
  it.each([
    [new stores.ConflictError(), 409, 1, "changed-on-disk"],
    [new stores.StoreLockedError("locked"), 409, 1, "locked"],
    [new stores.SymlinkRefusedError("link"), 409, 1, "symlink"],
    [new stores.InvalidStoreError("bad"), 422, 1, "invalid-store"],
    [new stores.NarrowingRefusedError("wider"), 422, 1, "not-narrower"],
    [new stores.InvalidInputError("bad rule"), 422, 2, "invalid-input"],
    [new stores.ReadOnlyStoreError("managed"), 403, 1, "read-only"],
    [new stores.NotFoundError("gone"), 404, 1, "not-found"],
  ] as const)("%s carries its status, exit code and refusal kind", (error, status, exitCode, kind) => {
    expect(error).toBeInstanceOf(AppError);
    expect(error).toBeInstanceOf(stores.StoreError);
    expect(statusOf(error)).toBe(status);
    expect(exitCodeOf(error)).toBe(exitCode);
    expect(error.details).toEqual({ kind });
    expect(error.name).toBe(error.constructor.name);
  });

  it("invalid input has one mapping: 422 over HTTP, a usage error (exit 2) in the CLI", () => {
    const error = new stores.InvalidInputError("invalid rule: Bash(");
    expect(statusOf(error)).toBe(422);
    expect(cliFailure(error)).toEqual({ usage: true, message: "invalid rule: Bash(" });
    expect(cliFailure(new stores.ConflictError())).toEqual({ usage: false, message: "changed on disk — refresh" });
  });

  it("maps by properties, never by class name", () => {
    class ConflictErrorLookalike extends Error {}
    const impostor = new ConflictErrorLookalike("x");
    impostor.name = "ConflictError";
    expect(statusOf(impostor)).toBe(500);
    expect(exitCodeOf(impostor)).toBeNull();
    expect(cliFailure(impostor)).toBeNull();
    expect(statusOf(new ConflictError("taken"))).toBe(409);
    expect(exitCodeOf(new ValidationError("bad"))).toBe(2);
    expect(statusOf("not an error")).toBe(500);
  });
});
