import type { CallFacts } from "./call";
import { isInside, resolveCallPath } from "./paths";
import type { PolicyContext } from "./types";

/** Targets of a shell command that remove the home directory or the root, after resolving against cwd. */
export function deletesRootOrHome(f: CallFacts, ctx: PolicyContext): boolean {
  const a = f.shell;
  if (!a) return false;
  if (a.rootHomeDelete) return true;
  const home = resolveCallPath(ctx.home, f.env);
  // Deleting the home directory's parent (`rm -rf /home`) deletes home too.
  return a.deleteTargets.some((t) => !/[$*?`]/.test(t) && isInside(home, resolveCallPath(t, f.env)));
}
