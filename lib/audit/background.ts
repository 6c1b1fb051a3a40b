const MINUTE = 60_000;

// Every minute: sign a checkpoint when the head is 10 minutes past the last one; hourly: apply retention.
export async function startAuditWork(): Promise<void> {
  const { getOpenedDb } = await import("@/db/client");
  const { env } = await import("@/lib/config/env");
  const { checkpointIfDue } = await import("./checkpoint");
  const { runRetention } = await import("./retention");
  const { catchUpAuditSearch, SEARCH_BATCH } = await import("./search-index");
  const opened = await getOpenedDb();
  const days = env().COCKPIT_AUDIT_RETENTION_DAYS;
  let lastRetention = 0;
  let running = false;
  const tick = async () => {
    await checkpointIfDue(opened.db);
    if (days && Date.now() - lastRetention >= 60 * MINUTE) {
      lastRetention = Date.now();
      await runRetention(opened.db, days);
    }
  };
  // Every second: index the new events for free-text search, a batch at a time (off the insert path).
  let indexing = false;
  const indexer = setInterval(() => {
    if (indexing) return;
    indexing = true;
    catchUpAuditSearch(opened.db, SEARCH_BATCH * 10)
      .catch((error) => console.error("audit search indexing failed:", error))
      .finally(() => {
        indexing = false;
      });
  }, 1000);
  indexer.unref();
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch((error) => console.error("audit checkpoint/retention failed:", error))
      .finally(() => {
        running = false;
      });
  }, MINUTE);
  timer.unref();
}
