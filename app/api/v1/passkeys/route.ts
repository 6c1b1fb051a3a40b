import { listPasskeys, registerPasskey, RegisterPasskeyInput } from "@/lib/auth/passkeys";
import { json, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** The caller's passkeys. */
export const GET = route({ access: "viewer", person: true }, async ({ db, actor }) => ({
  passkeys: await listPasskeys({ db, actor }),
}));

/** `{ name, response }` (from `startRegistration`) → 201; the challenge must come from /api/v1/passkeys/options. */
export const POST = route({ access: "viewer", person: true, body: RegisterPasskeyInput }, async ({ db, actor, body }) =>
  json({ passkey: await registerPasskey({ db, actor, input: body }) }, 201),
);
