import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, HSTS, newNonce, servedOverHttps } from "@/lib/http/csp";

/** Per-request nonce-based Content-Security-Policy for pages, and HSTS when served over https (lib/http/csp.ts). */
export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV !== "production" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  // The page asked for, so a sign-in redirect can come back to it (`/login?next=…`, lib/auth/page.ts).
  requestHeaders.set("x-cockpit-path", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  if (servedOverHttps(process.env.COCKPIT_PUBLIC_URL, request.headers, request.url))
    response.headers.set("strict-transport-security", HSTS);
  return response;
}

export const config = {
  matcher: [
    {
      // Pages only: API routes answer JSON, static files carry no scripts of their own.
      source: "/((?!api/|_next/static|_next/image|favicon.ico|icons/|sw.js|offline.html|manifest.webmanifest).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
