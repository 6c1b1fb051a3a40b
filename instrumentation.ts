/** Runs once when the Next.js server starts (not during `next build`). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startBackgroundWork } = await import("./lib/server/background");
  await startBackgroundWork();
}
