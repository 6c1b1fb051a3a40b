import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { PLAIN_COOKIE, SECURE_COOKIE } from "@/lib/http/cookies";
import type { Actor } from "./actor";
import { actorFromSessionToken } from "./sessions";

/** The signed-in person for a page, or a redirect to the login page. */
export async function requirePageActor(): Promise<Extract<Actor, { kind: "user" }>> {
  const jar = await cookies();
  const token = jar.get(SECURE_COOKIE)?.value ?? jar.get(PLAIN_COOKIE)?.value;
  const actor = await actorFromSessionToken(await getDb(), token);
  if (!actor || actor.kind !== "user") redirect("/login");
  return actor;
}
