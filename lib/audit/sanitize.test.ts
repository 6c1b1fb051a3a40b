import { describe, expect, it } from "vitest";
import { MASK, sanitizeInput } from "./sanitize";

describe("sanitizeInput", () => {
  it.each([
    [{ command: "curl -H 'Authorization: Bearer abcdefgh12345' x" }, "abcdefgh12345"],
    [{ command: "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI" }, "wJalrXUtnFEMI"],
    [{ command: "echo ghp_abcdefghijklmnop" }, "ghp_abcdefghijklmnop"],
    [{ command: "psql postgres://me:hunter2@db/x" }, "hunter2"],
    [{ headers: { Authorization: "Basic dXNlcjpwYXNz" } }, "dXNlcjpwYXNz"],
    [{ apiKey: "k-123" }, "k-123"],
    [{ file_path: ".env.local", old_string: "A=1", new_string: "A=2" }, "A=2"],
    [{ file_path: "src/a.ts", content: "secret body of the file" }, "secret body"],
    [{ edits: [{ old_string: "x", new_string: "patch text" }] }, "patch text"],
  ])("removes the secret or body from %j", (input, secret) => {
    expect(JSON.stringify(sanitizeInput(input))).not.toContain(secret);
  });

  it("keeps ordinary values and paths", () => {
    expect(sanitizeInput({ command: "git status", token: "" })).toEqual({ command: "git status", token: "" });
    expect(sanitizeInput({ file_path: "/p/.env", offset: 3 })).toEqual({ file_path: "/p/.env", offset: 3 });
    expect(sanitizeInput({ password: "x" })).toEqual({ password: MASK });
  });
});
