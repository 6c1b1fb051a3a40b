import { getDb } from "@/db/client";
import { AcceptInviteForm } from "@/components/collaborators/accept-invite-form";
import { inviteIsOpen } from "@/lib/auth/invites";

export const metadata = { title: "Join the cockpit", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Invite landing page: asks for a display name, or says clearly that the link is spent. */
export default async function InvitePage({ searchParams }: { searchParams: SearchParams }) {
  const raw = (await searchParams).token;
  const token = Array.isArray(raw) ? raw[0] : raw;
  const open = await inviteIsOpen(await getDb(), token);
  return (
    <main className="content narrow-page" id="main">
      <h1>Permissions Cockpit</h1>
      {open && token ? (
        <AcceptInviteForm token={token} />
      ) : (
        <div className="card" role="alert" data-testid="invite-gone">
          <h2 className="flush-top">This invite link cannot be used</h2>
          <p>
            It is invalid, has expired, or was already used: each invite works once. Ask the person who invited you for
            a new link.
          </p>
        </div>
      )}
    </main>
  );
}
