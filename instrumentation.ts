/** Runs once when the Next.js server starts (not during `next build`). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const [{ env }, { configureStoreReads }] = await Promise.all([
    import("./lib/config/env"),
    import("./lib/stores/read-store"),
  ]);
  configureStoreReads({ maxBytes: env().COCKPIT_MAX_STORE_BYTES });
  const { startBackgroundWork } = await import("./lib/server/background");
  await startBackgroundWork();
}
