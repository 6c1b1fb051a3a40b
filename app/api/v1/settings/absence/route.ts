import { requireCan } from "@/lib/auth/access";
import { route } from "@/lib/http/route";
import { AbsenceSetting, absenceTimeout, setAbsenceTimeout } from "@/lib/cards";

export const dynamic = "force-dynamic";

/** The absence timeout in seconds; null = off (cards wait indefinitely). */
export const GET = route({ access: "admin" }, async ({ db, actor }) => {
  requireCan(actor, "settings.manage", null);
  return { timeoutSeconds: await absenceTimeout(db) };
});

export const PUT = route({ access: "admin", body: AbsenceSetting }, async ({ db, actor, body }) =>
  setAbsenceTimeout({ db, actor, input: body }),
);
