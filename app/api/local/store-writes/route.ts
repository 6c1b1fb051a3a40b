import { recordCliStoreWrite, RecordCliWriteInput } from "@/lib/entries";
import { json, route } from "@/lib/http/route";

/**
 * `cockpit revoke`, `narrow` and `add` report the store write they made with their own OS rights; the cockpit records
 * its `entry.*` row after checking the file on disk (lib/entries/record-cli-write.ts). Writes no file.
 */
export const POST = route({ access: "owner", body: RecordCliWriteInput }, async ({ db, actor, body }) =>
  json(await recordCliStoreWrite({ db, actor, input: body }), 201),
);
