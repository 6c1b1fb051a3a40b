import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const APP = path.resolve(__dirname, "../../app");
const PUBLIC_ROUTES = [
  "api/auth/invite/route.ts",
  "api/auth/passkey/options/route.ts",
  "api/auth/passkey/route.ts",
  "api/auth/login/route.ts",
  "api/health/route.ts",
  "api/v1/notify/actions/[token]/route.ts",
];

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [full] : [];
  });
}

describe("route inventory", () => {
  const files = routeFiles(APP);
  it("finds the route handlers", () => expect(files.length).toBeGreaterThan(20));

  it.each(files.map((f) => [path.relative(APP, f), f]))("%s goes through route() for every method", (_rel, file) => {
    const text = fs.readFileSync(file, "utf8");
    const exported = [
      ...text.matchAll(/^export\s+(?:async\s+)?(?:const|function)\s+(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b/gm),
    ].map((m) => m[1]);
    const wrapped = [
      ...text.matchAll(
        /^export const (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) = route\(\s*\{\s*access: "(public|agent|viewer|approver|admin|owner)"/gm,
      ),
    ].map((m) => m[1]);
    expect(exported.length).toBeGreaterThan(0);
    expect(wrapped).toEqual(exported);
  });

  it("only login, invite acceptance, health and the ntfy action callback are public", () => {
    const open = files
      .filter((f) => /access: "public"/.test(fs.readFileSync(f, "utf8")))
      .map((f) => path.relative(APP, f))
      .sort();
    expect(open).toEqual([...PUBLIC_ROUTES].sort());
  });

  it("no GET handler is reachable by agents or the public except health", () => {
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      if (/export const GET = route\(\s*\{\s*access: "public"/.test(text))
        expect(path.relative(APP, file)).toBe("api/health/route.ts");
    }
  });

  it("every person route is in the route × role table of access-api.test.ts (or the stream/logout/device cases there)", () => {
    const table = fs.readFileSync(path.resolve(APP, "api/v1/collaborators/access-api.test.ts"), "utf8");
    const covered = new Set(
      [...table.matchAll(/name: "(GET|POST|PUT|PATCH|DELETE) (\/api\/[^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`),
    );
    for (const extra of ["GET /api/v1/events", "POST /api/auth/logout", "DELETE /api/v1/devices/:id"])
      covered.add(extra);
    const missing: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      const rel = "/" + path.relative(APP, path.dirname(file)).replace(/\[(\w+)\]/g, ":$1");
      for (const m of text.matchAll(
        /^export const (GET|POST|PUT|PATCH|DELETE) = route\(\s*\{\s*access: "(viewer|approver|admin|owner)"/gm,
      )) {
        const key = `${m[1]} ${rel.replace(/:(\w+)/g, (_all, name: string) => (name === "id" ? ":id" : `:${name === "rootSessionId" ? "root" : name}`))}`;
        if (!covered.has(key)) missing.push(key);
      }
    }
    expect(missing).toEqual([]);
  });
});
