import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeLocalCredential } from "@/lib/auth/local-credential";
import { serverCredential } from "./server-client";

// docs/deploy.md: with the cockpit running as its own OS user, the data folder is unreadable to the developer; the
// owner hands the CLI a URL and a credential explicitly.
const dir = mkdtempSync(path.join(os.tmpdir(), "server-credential-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("serverCredential", () => {
  it("prefers COCKPIT_URL + COCKPIT_CLI_TOKEN over the data folder", () => {
    writeLocalCredential(dir, "http://127.0.0.1:3000", 1);
    expect(serverCredential({}, dir)).toMatchObject({ url: "http://127.0.0.1:3000" });
    expect(serverCredential({ COCKPIT_URL: "http://cockpit.internal:4000", COCKPIT_CLI_TOKEN: "cpc_x" }, dir)).toEqual({
      url: "http://cockpit.internal:4000",
      token: "cpc_x",
    });
  });
  it("refuses half a pair, a token that is not a CLI credential, and a bad URL", () => {
    expect(() => serverCredential({ COCKPIT_URL: "http://x" }, dir)).toThrow(/both/);
    expect(() => serverCredential({ COCKPIT_URL: "http://x", COCKPIT_CLI_TOKEN: "cpa_agent" }, dir)).toThrow(/cpc_/);
    expect(() => serverCredential({ COCKPIT_URL: "not a url", COCKPIT_CLI_TOKEN: "cpc_x" }, dir)).toThrow(/not a URL/);
  });
  it("without either, a missing data-folder credential is null", () => {
    expect(serverCredential({}, path.join(dir, "nothing-here"))).toBeNull();
  });
});
