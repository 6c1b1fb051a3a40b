// Generates the VAPID keys on first start and runs the outbox worker for the server's lifetime.
export async function startNotifyWork(): Promise<void> {
  const { getOpenedDb } = await import("@/db/client");
  const { vapidKeys } = await import("./push");
  const { releaseLeases } = await import("./fan-out");
  const { startNotifyWorker } = await import("./worker");
  const opened = await getOpenedDb();
  await vapidKeys(opened.db).catch((error) => console.error("notify: VAPID keys could not be prepared:", error));
  // The embedded database has one process: leases left by a crash mid-attempt are this process's own.
  if (opened.kind === "embedded")
    await releaseLeases(opened.db).catch((error) => console.error("notify: releasing leases failed:", error));
  startNotifyWorker({ db: opened.db });
}
