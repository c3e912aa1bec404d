/**
 * Runs once when the Next.js server boots, before the first request: make the output streams safe to lose, migrate
 * the database, seed the demo on a fresh install, start the run worker (which also resumes runs a crash or restart
 * left "running"), and make sure a stop signal stops the server.
 */

/** After SIGTERM or SIGINT, how long Next may take to close (it waits for requests under way) before the process ends anyway. */
const STOP_DEADLINE_MS = 5_000;

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { guardOutputStream } = await import("./lib/process/output-streams");
  // `next start 2>&1 | head`: once the reader has gone, what the server logs is dropped instead of failing with EPIPE
  // as an uncaught exception, which Next would log to the same closed pipe, and so on.
  guardOutputStream(process.stdout);
  guardOutputStream(process.stderr);

  const { getDb } = await import("./lib/db/client");
  const { seedDemoIfEmpty } = await import("./lib/db/demo");
  const { ensureRunWorker } = await import("./lib/rollout/process-worker");
  const { seeded } = await seedDemoIfEmpty(getDb());
  // console.error, not process.stderr: this file is also compiled for the Edge runtime, which has no process streams.
  if (seeded) console.error("skillboard: added the demo dataset and skills");
  const worker = ensureRunWorker();

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      // Runs under way are released still "running" (finished items stored), for the next start to resume. Next closes
      // its server and exits by itself; whatever holds it up (a slow download), the process ends by the deadline, and
      // a run the worker had no time to release is resumed all the same (its lease names a process that is gone).
      void worker.stop();
      setTimeout(() => process.exit(128 + (signal === "SIGTERM" ? 15 : 2)), STOP_DEADLINE_MS).unref();
    });
  }
}
