/**
 * Where to go after signing in: a same-origin path only (`/cards/abc?x=1`). Anything else — another site,
 * a protocol-relative `//evil.example`, a backslash trick, control characters, the login page itself or the
 * API — gives null (then the app's own landing decides).
 */
export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2000) return null;
  if (!raw.startsWith("/") || raw.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  const base = "http://cockpit.invalid";
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  if (url.pathname === "/login" || url.pathname === "/invite" || url.pathname.startsWith("/api/")) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
