import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { users } from "@/db/schema";

/** The owner's user row, created on first use. */
export async function ensureOwner(db: DbOrTx): Promise<{ id: string; name: string }> {
  const [existing] = await db.select().from(users).where(eq(users.isOwner, true)).limit(1);
  if (existing) return existing;
  const id = crypto.randomUUID();
  await db.insert(users).values({ id, name: "owner", isOwner: true }).onConflictDoNothing();
  const [row] = await db.select().from(users).where(eq(users.isOwner, true)).limit(1);
  return row!;
}
