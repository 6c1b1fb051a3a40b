/**
 * Security headers for HTML pages, set per request by proxy.ts (Next.js 16's name for middleware), following the
 * Next.js "Content Security Policy" guide: a fresh nonce per request, which Next.js puts on its own scripts when it
 * finds it in the request's Content-Security-Policy header. Pages therefore render dynamically (app/layout.tsx).
 */

/** 128 random bits, base64 — unguessable and new for every request. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

export function contentSecurityPolicy(nonce: string, { dev = false }: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts a nonced script loads are trusted too; 'self' is the fallback for old browsers.
    // React needs eval only for its development tooling, never in production.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // React renders style="…" attributes, which a nonce cannot cover; stylesheets come from 'self'.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** HSTS only where the browser honours it: the cockpit is served over https (configured URL or this request). */
export function servedOverHttps(publicUrl: string | undefined, headers: Headers, url: string): boolean {
  if (publicUrl?.startsWith("https://")) return true;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  return (proto ?? new URL(url).protocol.replace(":", "")) === "https";
}

export const HSTS = "max-age=31536000; includeSubDomains";
