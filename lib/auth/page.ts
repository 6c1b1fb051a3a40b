import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { PLAIN_COOKIE, SECURE_COOKIE } from "@/lib/auth/cookies";
import { safeNextPath } from "@/lib/text/next-path";
import type { Actor } from "./actor";
import { actorFromSessionToken } from "./sessions";

/**
 * The signed-in person for a page, or a redirect to the login page that remembers the page asked for
 * (`/login?next=/cards/…`, same-origin paths only), so a notification's deep link survives the sign-in.
 */
export async function requirePageActor(): Promise<Extract<Actor, { kind: "user" }>> {
  const jar = await cookies();
  const token = jar.get(SECURE_COOKIE)?.value ?? jar.get(PLAIN_COOKIE)?.value;
  const actor = await actorFromSessionToken(await getDb(), token);
  if (!actor || actor.kind !== "user") {
    const next = safeNextPath((await headers()).get("x-cockpit-path"));
    redirect(next && next !== "/" ? `/login?next=${encodeURIComponent(next)}` : "/login");
  }
  return actor;
}
