const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isUnsafeMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** The origin this request was addressed to, from Host (or the proxy's X-Forwarded-* headers). */
function expectedOrigin(headers: Headers, fallbackUrl: string): string {
  const url = new URL(fallbackUrl);
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? url.host;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? url.protocol.replace(":", "");
  return `${proto}://${host}`;
}

/**
 * Cross-site request check for cookie-authenticated unsafe requests: Fetch Metadata first,
 * Origin second; a request carrying neither is refused (a browser always sends one of them).
 * Returns the refusal reason, or null when the request is same-origin.
 */
export function csrfRefusal(
  method: string,
  headers: Headers,
  url: string,
  publicOrigin: string | null = null,
): string | null {
  if (!isUnsafeMethod(method)) return null;
  const site = headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return `cross-site request refused (Sec-Fetch-Site: ${site})`;
  const origin = headers.get("origin");
  if (origin) {
    if (origin !== expectedOrigin(headers, url) && origin !== publicOrigin)
      return `cross-site request refused (Origin ${origin} is not this cockpit)`;
    return null;
  }
  if (site === "same-origin") return null;
  return "cross-site request refused (no Origin header on an unsafe request)";
}
