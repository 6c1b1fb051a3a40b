import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../main";

// A stub cockpit whose sessions carry agent-chosen ids that try to drive the terminal.
const EVIL = "s\u001b]0;pwned\u0007\u202Eexe.txt";
let server: http.Server;
let dir: string;
const before = process.env.COCKPIT_DATA;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        sessions: [
          {
            workspace: { id: "w1", name: "app\u001b[2J" },
            rootSessionId: EVIL,
            pending: 1,
            deadline: null,
            heldSince: null,
          },
        ],
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cockpit-sessions-"));
  const port = (server.address() as { port: number }).port;
  fs.writeFileSync(
    path.join(dir, "local-credential.json"),
    JSON.stringify({ url: `http://127.0.0.1:${port}`, token: "cpc_x", pid: process.pid }),
  );
  process.env.COCKPIT_DATA = dir;
});
afterAll(() => {
  if (before === undefined) delete process.env.COCKPIT_DATA;
  else process.env.COCKPIT_DATA = before;
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(argv: string[]) {
  const out: string[] = [];
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => (out.push(String(s)), true));
  try {
    return { code: await main(argv), out: out.join("") };
  } finally {
    o.mockRestore();
  }
}
const RAW = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060\uFEFF]/;

describe("cockpit sessions list", () => {
  it("prints agent-chosen ids with hidden characters made visible, never raw escapes", async () => {
    const r = await run(["sessions", "list"]);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain("\u001b");
    expect(RAW.test(r.out)).toBe(false);
    expect(r.out).toContain("s⟨ESC⟩]0;pwned⟨BEL⟩⟨U+202E⟩exe.txt");
    expect(r.out).toContain("app⟨ESC⟩[2J");
  });

  it("--json keeps the data but escapes hidden characters", async () => {
    const r = await run(["sessions", "list", "--json"]);
    expect(RAW.test(r.out)).toBe(false);
    expect(JSON.parse(r.out)[0].rootSessionId).toBe(EVIL);
  });
});
