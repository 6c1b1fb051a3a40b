import { env } from "@/lib/config/env";

/** Links the cockpit hands out (login, card deep links) use the configured public URL, never a client-supplied Host. */
export function publicBaseUrl(_req?: Request): string {
  const configured = env().COCKPIT_PUBLIC_URL;
  if (configured) return configured.replace(/\/$/, "");
  return `http://localhost:${env().PORT}`;
}
