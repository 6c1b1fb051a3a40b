// The absence sweep runs every second; the Postgres bus bridge lets several server processes share card changes.
export async function startCardsWork(): Promise<void> {
  const { getOpenedDb } = await import("@/db/client");
  const { expireAbsentQueues } = await import("./expire-absent-queues");
  const { announceShutdown } = await import("./bus");
  // Next's own handlers stop the server; ours releases held requests so it can actually exit.
  // Alone (no other handler), a listener would swallow the signal: then re-raise it.
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      announceShutdown();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
  const opened = await getOpenedDb();
  if (opened.pgPool) {
    const { connectPgBus } = await import("./bus");
    await connectPgBus(opened.pgPool).catch((error) =>
      console.error("card bus: LISTEN failed, changes stay in this process:", error),
    );
  }
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    expireAbsentQueues({ db: opened.db })
      .catch((error) => console.error("absence sweep failed:", error))
      .finally(() => {
        running = false;
      });
  }, 1000);
  timer.unref();
}
