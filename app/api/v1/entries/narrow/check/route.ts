import { previewNarrowing, PreviewNarrowingInput } from "@/lib/entries";
import { route } from "@/lib/http/route";

/** Live validation for the narrow dialog: `{ proved, reason }`, nothing written. */
export const POST = route({ access: "viewer", body: PreviewNarrowingInput }, ({ db, actor, body }) =>
  previewNarrowing({ db, actor, input: body }),
);
