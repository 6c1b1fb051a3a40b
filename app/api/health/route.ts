import { json, route } from "@/lib/http/route";
import { serverHealth } from "@/lib/server/health";

export const dynamic = "force-dynamic";

/** Liveness for people and scripts: version, database kind, migrations current. */
export const GET = route({ access: "public" }, async () => json(await serverHealth()));
