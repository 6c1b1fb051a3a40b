/**
 * After `cockpit revoke`, `narrow` or `add` wrote a store file (with the CLI's own OS rights, no server needed), the
 * running cockpit records its `entry.*` audit row with the file's old and new version (POST /api/local/store-writes,
 * lib/entries/record-cli-write.ts). The write stands either way: when the cockpit is not running, or refuses the
 * report, the CLI says on stderr that the change has no audit row and still exits 0 (docs/conventions.md).
 */
import type { RecordCliWriteInput } from "@/lib/entries/record-cli-write";
import type { WriteResult } from "@/lib/stores/write-common";
import { callServer, serverCredential } from "./server-client";

export type StoreWriteReport = Omit<RecordCliWriteInput, "result"> & { result: WriteResult };

export async function recordStoreWrite(report: StoreWriteReport): Promise<void> {
  if (report.result.dryRun) return;
  const { store, scope, before, after, scopeWarning } = report.result;
  const body: RecordCliWriteInput = {
    ...report,
    result: { store, scope, before, after, ...(scopeWarning ? { scopeWarning } : {}) },
  };
  try {
    if (!serverCredential()) {
      process.stderr.write("note: the cockpit is not running, so this change has no audit row\n");
      return;
    }
    await callServer("POST", "/api/local/store-writes", body);
  } catch (error) {
    process.stderr.write(
      `warning: written, but the cockpit's audit log did not record it: ${(error as Error).message}\n`,
    );
  }
}
