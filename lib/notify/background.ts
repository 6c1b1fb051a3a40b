import { registerBackgroundWork } from "@/lib/server/background";

// Generates the VAPID keys on first start and runs the outbox worker for the server's lifetime.
registerBackgroundWork("notify", async () => {
  const { getDb } = await import("@/db/client");
  const { vapidKeys } = await import("./push");
  const { startNotifyWorker } = await import("./worker");
  const db = await getDb();
  await vapidKeys(db).catch((error) => console.error("notify: VAPID keys could not be prepared:", error));
  startNotifyWorker({ db });
});
