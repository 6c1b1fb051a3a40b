/**
 * Claude Code's `WebFetch(domain:…)` matching (permissions#webfetch): "Matching is case-insensitive, supports `*`
 * wildcards, and strips a trailing `.` from both the rule and the hostname"; "`*.example.com` matches any subdomain
 * at any depth … but not `example.com` itself"; "`domain:*` matches every domain"; "In any position other than a
 * leading `*.` or a bare `*`, the wildcard matches only the text between two dots."
 */
const cache = new Map<string, RegExp>();
const esc = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
const strip = (s: string) => s.toLowerCase().replace(/\.+$/, "");

function compile(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re) return re;
  const label = (p: string) => p.split("*").map(esc).join("[^.]*");
  if (pattern === "*") re = /^.+$/s;
  else if (pattern.startsWith("*.")) re = new RegExp(`^(?:[^.]+\\.)+${label(pattern.slice(2))}$`);
  else re = new RegExp(`^${label(pattern)}$`);
  if (cache.size > 5_000) cache.clear();
  cache.set(pattern, re);
  return re;
}

/** Does a `domain:` pattern match the hostname of a requested URL? */
export function claudeDomainMatch(pattern: string, host: string): boolean {
  const p = strip(pattern);
  const h = strip(host);
  if (!p || !h) return false;
  return compile(p).test(h);
}
