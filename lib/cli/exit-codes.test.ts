import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import {
  AppError,
  ConflictError,
  InvalidInputError,
  NarrowingRefusedError,
  NotFoundError,
  UnavailableError,
  ValidationError,
} from "@/lib/errors";
import { exitCodeOf, reportFailure } from "./exit-codes";
import { DecideInputError } from "./decide-one";
import { serverRefusal } from "./server-client";

const verb = { name: "demo", usage: "Usage: cockpit demo --flag" };
function report(error: unknown) {
  const out: string[] = [];
  const code = reportFailure(verb, error, (t) => out.push(t));
  return { code, text: out.join("") };
}

describe("the CLI maps an error's code to its exit code in one place", () => {
  it("bad input exits 2 with the verb's usage; a refusal exits 1 in one line", () => {
    for (const error of [
      new ValidationError("--scope must be workspace or global"),
      new InvalidInputError("bad rule"),
    ]) {
      const r = report(error);
      expect(r.code).toBe(2);
      expect(r.text).toMatch(/^cockpit demo: .+\n\nUsage: cockpit demo --flag\n$/);
    }
    for (const error of [
      new ConflictError("changed on disk — refresh"),
      new NotFoundError("no entry 1234 — refresh"),
      new NarrowingRefusedError("cannot prove narrower"),
      new UnavailableError("the cockpit is not running"),
      new AppError("the build failed"),
    ]) {
      const r = report(error);
      expect(r.code).toBe(1);
      expect(r.text).toBe(`cockpit demo: ${error.message}\n`);
    }
  });

  it("decide's bad call input is bad input (exit 2), in one line as decide documents", () => {
    expect(exitCodeOf(new DecideInputError("not valid JSON"))).toBe(2);
    const out: string[] = [];
    const code = reportFailure({ ...verb, oneLineErrors: true }, new DecideInputError("not valid JSON"), (t) =>
      out.push(t),
    );
    expect({ code, text: out.join("") }).toEqual({ code: 2, text: "cockpit demo: not valid JSON\n" });
  });

  it("unknown or missing flags are bad input; an untyped error is a crash (exit 1, its stack)", () => {
    let flagError: unknown;
    try {
      parseArgs({ args: ["--bogus"], options: {}, strict: true });
    } catch (error) {
      flagError = error;
    }
    expect(report(flagError).code).toBe(2);
    const crash = report(new TypeError("x is undefined"));
    expect(crash.code).toBe(1);
    expect(crash.text).toMatch(/TypeError: x is undefined\n\s+at /);
  });

  it("an error the server sent maps by its code, or by its status when it has none", () => {
    expect(exitCodeOf(serverRefusal(400, { error: "bad", code: "invalid_request" }, "bad"))).toBe(2);
    expect(exitCodeOf(serverRefusal(409, { error: "taken", code: "conflict" }, "taken"))).toBe(1);
    expect(exitCodeOf(serverRefusal(400, {}, "HTTP 400"))).toBe(2);
    expect(exitCodeOf(serverRefusal(502, undefined, "HTTP 502"))).toBe(1);
    const refusal = serverRefusal(403, { error: "no", code: "forbidden", details: { needed: "admin" } }, "no");
    expect(refusal).toMatchObject({ message: "no", status: 403, code: "forbidden", details: { needed: "admin" } });
  });
});
