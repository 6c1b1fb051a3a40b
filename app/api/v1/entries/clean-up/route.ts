import { cleanUpWorkspace, CleanUpInput } from "@/lib/entries";
import { route } from "@/lib/http/route";

export const POST = route({ access: "admin", body: CleanUpInput }, async ({ db, actor, body }) =>
  cleanUpWorkspace({ db, actor, input: body }),
);
