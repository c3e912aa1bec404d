/**
 * Runs once when the Next.js server boots, before the first request: migrate the database, seed the demo
 * on a fresh install, remove dataset imports a crash left unfinished, and start the run worker (which also
 * resumes runs a crash or restart left "running").
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getDb } = await import("./lib/db");
  const { seedDemoIfEmpty } = await import("./lib/db/demo");
  const { removeAbandonedDatasetImports } = await import("./lib/db");
  const { ensureRunWorker } = await import("./lib/rollout/process-worker");
  const { seeded } = await seedDemoIfEmpty(getDb());
  // console.error, not process.stderr: this file is also compiled for the Edge runtime, which has no process streams.
  if (seeded) console.error("skillboard: added the demo dataset and skills");
  await removeAbandonedDatasetImports(getDb());
  ensureRunWorker();
}
