/**
 * Runs once when the Next.js server boots, before the first request: make the output streams safe to lose and free of
 * secrets, refuse credentials in a model server URL, migrate the database, seed the demo on a fresh install (its dataset,
 * skill and recorded optimisation), remove dataset imports a crash left unfinished, start the worker process (which
 * executes queued runs and optimisations, and resumes those a crash or restart left "running"), and make sure a stop
 * signal stops the server.
 */

/** After SIGTERM or SIGINT, how long Next may take to close (it waits for requests under way) before the process ends anyway. */
const STOP_DEADLINE_MS = 5_000;

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // As the CLI does: a large download no longer leaves the server hundreds of MB bigger (lib/process/heap-growth.ts).
  const { limitHeapGrowth, SERVER_HEAP_GROWING_PERCENT } = await import("./lib/process/heap-growth");
  limitHeapGrowth(SERVER_HEAP_GROWING_PERCENT);
  const { guardOutputStream, redactWrites } = await import("./lib/process/output-streams");
  // `next start 2>&1 | head`: once the reader has gone, what the server logs is dropped instead of failing with EPIPE
  // as an uncaught exception, which Next would log to the same closed pipe, and so on. And the log never shows a key,
  // whoever writes to it (Next logs the errors it catches).
  for (const stream of [process.stdout, process.stderr]) {
    guardOutputStream(stream);
    redactWrites(stream);
  }

  // A key in a model server URL would be quoted in every error: refuse to start, naming the setting only.
  const { modelEnvironmentProblems } = await import("./lib/model/url-credentials");
  const problems = modelEnvironmentProblems();
  if (problems.length > 0) {
    for (const problem of problems) console.error(`skillboard: refusing to start: ${problem}`);
    process.exit(2);
  }

  const { getDb } = await import("./lib/db");
  const { seedDemoIfEmpty } = await import("./lib/db/demo");
  const { removeAbandonedDatasetImports } = await import("./lib/db");
  const { ensureDashboardWorkers } = await import("./lib/workers/dashboard-workers");
  const { seedDemoOptimization } = await import("./lib/optimize/demo-optimization");
  const { seeded } = await seedDemoIfEmpty(getDb());
  // Only the process that seeded the demo adds its recorded optimisation (several may start on one fresh database).
  if (seeded) await seedDemoOptimization(getDb());
  // console.error, not process.stderr: this file is also compiled for the Edge runtime, which has no process streams.
  if (seeded) console.error("skillboard: added the demo dataset and skills, and an optimisation recorded with scripted models");
  await removeAbandonedDatasetImports(getDb());
  // Runs and optimisations execute in a worker process (SKILLBOARD_WORKER=inline: in this one), so pages stay fast.
  const workers = ensureDashboardWorkers();

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      // Runs under way are released still "running" (finished items stored), for the next start to resume. Next closes
      // its server and exits by itself; whatever holds it up (a slow download), the process ends by the deadline, and
      // a run the worker had no time to release is resumed all the same (its lease names a process that is gone).
      void workers.stop();
      setTimeout(() => process.exit(128 + (signal === "SIGTERM" ? 15 : 2)), STOP_DEADLINE_MS).unref();
    });
  }
}
