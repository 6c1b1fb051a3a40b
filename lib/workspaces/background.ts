import os from "node:os";

// A writer killed mid-write leaves a temp file beside a store; remove those once per server start.
export async function startStoreSweep(): Promise<void> {
  const { getDb } = await import("@/db/client");
  const { listWorkspaces } = await import("./workspaces");
  const { sweepStoreFolders } = await import("@/lib/stores/sweep-store-folders");
  const home = os.homedir();
  const workspaces = await listWorkspaces(await getDb());
  const targets = workspaces.length ? workspaces.map((w) => w.path) : [home];
  for (const workspace of targets) {
    try {
      const removed = await sweepStoreFolders({ workspace, home });
      if (removed.length)
        console.log(`removed ${removed.length} stale temp file(s) of interrupted store writes: ${removed.join(", ")}`);
    } catch (error) {
      console.error(`store sweep of ${workspace} failed:`, error);
    }
  }
}
