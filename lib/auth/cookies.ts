/** Session cookie: `__Host-` + Secure over https; plain name over http (browsers refuse Secure cookies there). */
export const SECURE_COOKIE = "__Host-cockpit_session";
export const PLAIN_COOKIE = "cockpit_session";

export function isHttps(headers: Headers, url: string): boolean {
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  return (proto ?? new URL(url).protocol.replace(":", "")) === "https";
}

export function sessionCookie(token: string, maxAgeSeconds: number, https: boolean): string {
  const name = https ? SECURE_COOKIE : PLAIN_COOKIE;
  return `${name}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${https ? "; Secure" : ""}`;
}

export function clearedSessionCookies(https: boolean): string[] {
  return [
    `${PLAIN_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`,
    ...(https ? [`${SECURE_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure`] : []),
  ];
}

export function sessionTokenFrom(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  let plain: string | null = null;
  for (const part of cookieHeader.split(";")) {
    const [rawName, ...rest] = part.trim().split("=");
    const value = rest.join("=");
    if (rawName === SECURE_COOKIE && value) return value;
    if (rawName === PLAIN_COOKIE && value) plain = value;
  }
  return plain;
}
