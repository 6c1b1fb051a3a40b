import { describe, expect, it, vi } from "vitest";
import { main } from "./main";

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => (out.push(String(s)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => (err.push(String(s)), true));
  try {
    const code = await main(argv);
    return { code, out: out.join(""), err: err.join("") };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe("cockpit CLI dispatch", () => {
  it("lists the verbs and exits 2 without one", async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    for (const verb of ["start", "login-link", "workspace"]) expect(r.out).toContain(verb);
  });
  it("refuses an unknown verb with usage", async () => {
    const r = await run(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown verb "frobnicate"');
    expect(r.err).toContain("Usage: cockpit");
  });
  it("prints --help for every verb", async () => {
    for (const verb of ["start", "login-link", "workspace"]) {
      const r = await run([verb, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^Usage: cockpit/);
    }
  });
  it("refuses bad flags and subcommands with usage (exit 2)", async () => {
    const bad = await run(["start", "--bogus"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("Usage: cockpit start");
    const sub = await run(["workspace", "explode"]);
    expect(sub.code).toBe(2);
    expect(sub.err).toContain('unknown subcommand "explode"');
  });
  it("stops start-up on a bad environment value, naming the variable", async () => {
    const before = process.env.PORT;
    process.env.PORT = "not-a-port";
    try {
      const r = await run(["start", "--no-build"]);
      expect(r.code).toBe(2);
      expect(r.err).toContain("PORT");
    } finally {
      if (before === undefined) delete process.env.PORT;
      else process.env.PORT = before;
    }
  });
  it("login-link says the server is not running when there is no credential", async () => {
    const before = process.env.COCKPIT_DATA;
    process.env.COCKPIT_DATA = "/nonexistent/cockpit-data";
    try {
      const r = await run(["login-link"]);
      expect(r.code).toBe(1);
      expect(r.err).toContain("not running");
    } finally {
      if (before === undefined) delete process.env.COCKPIT_DATA;
      else process.env.COCKPIT_DATA = before;
    }
  });
});

describe("cockpit start with a data folder another server owns", () => {
  it("refuses to start a second server on the same data folder", async () => {
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const http = await import("node:http");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cockpit-owned-"));
    const server = http.createServer((_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    fs.writeFileSync(
      path.join(dir, "local-credential.json"),
      JSON.stringify({ url: `http://127.0.0.1:${port}`, token: "cpc_x", pid: process.pid }),
    );
    const before = process.env.COCKPIT_DATA;
    process.env.COCKPIT_DATA = dir;
    try {
      const r = await run(["start", "--no-build"]);
      expect(r.code).toBe(1);
      expect(r.err).toContain("already running");
    } finally {
      if (before === undefined) delete process.env.COCKPIT_DATA;
      else process.env.COCKPIT_DATA = before;
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
