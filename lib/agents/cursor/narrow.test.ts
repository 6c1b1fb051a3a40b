import { describe, expect, it } from "vitest";
import { isNarrowerToken } from "./narrow";
import { parseToken } from "./tokens";

const tok = (t: string) => {
  const p = parseToken(t);
  if (!p.ok) throw new Error(p.error);
  return p.token;
};
const narrower = (from: string, to: string, action: "allow" | "deny" = "allow", toAction = action) =>
  isNarrowerToken({ action, token: tok(from) }, { action: toAction, token: tok(to) });

describe("isNarrowerToken: allow entries may only shrink", () => {
  it.each([
    ["Shell(git)", "Shell(git:status*)"],
    ["Shell(git:*)", "Shell(git:log)"],
    ["Shell(np*)", "Shell(npm)"],
    ["Shell(*)", "Shell(ls)"],
    ["Read(src/**)", "Read(src/lib/**)"],
    ["Read(src/**)", "Read(src/a.ts)"],
    ["Read(**)", "Read(docs/**/*.md)"],
    ["Write(**/*.ts)", "Write(src/a.ts)"],
    ["WebFetch(*)", "WebFetch(docs.github.com)"],
    ["WebFetch(*.github.com)", "WebFetch(api.github.com)"],
    ["WebFetch(*.github.com)", "WebFetch(*.api.github.com)"],
    ["Mcp(*:*)", "Mcp(datadog:*)"],
    ["Mcp(datadog:*)", "Mcp(datadog:query)"],
  ])("%s → %s is proved", (a, b) => {
    expect(narrower(a, b)).toEqual({ proved: true });
  });

  it.each([
    ["Shell(git:status*)", "Shell(git)", /arguments/],
    ["Shell(git)", "Shell(gitk)", /not within/],
    ["Shell(git)", "Shell(git)", /identical/],
    ["Shell(ls)", "Read(ls)", /not within/],
    ["Read(src/**)", "Read(**)", /reaches beyond/],
    ["Read(src/**)", "Read(/etc/passwd)", /reaches beyond/],
    ["WebFetch(*.github.com)", "WebFetch(github.com)", /not within/],
    ["WebFetch(docs.github.com)", "WebFetch(*.github.com)", /not within/],
    ["Mcp(datadog:*)", "Mcp(*:query)", /server/],
    ["Mcp(*:*)", "Mcp(datadog, query)", /documented/],
  ])("%s → %s is refused", (a, b, why) => {
    const p = narrower(a, b);
    expect(p.proved).toBe(false);
    if (!p.proved) expect(p.reason).toMatch(why);
  });

  it("allow → deny is narrower; deny → allow never", () => {
    expect(narrower("Shell(git)", "Shell(git)", "allow", "deny")).toEqual({ proved: true });
    expect(narrower("Shell(git)", "Shell(git)", "deny", "allow").proved).toBe(false);
  });
});

describe("isNarrowerToken: deny entries may only grow", () => {
  it("a larger deny is narrower, a smaller one is not", () => {
    expect(narrower("Shell(rm:-rf*)", "Shell(rm)", "deny")).toEqual({ proved: true });
    expect(narrower("Read(.env)", "Read(.env*)", "deny")).toEqual({ proved: true });
    const p = narrower("Shell(rm)", "Shell(rm:-rf*)", "deny");
    expect(p.proved).toBe(false);
  });
});
