import { listCollaborators } from "@/lib/auth/invites";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** The owner and the collaborators in the workspaces the caller administers. */
export const GET = route({ access: "admin", person: true }, async ({ db, actor }) => ({
  collaborators: await listCollaborators({ db, actor }),
}));
