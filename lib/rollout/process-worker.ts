import { getDb } from "../db";
import { startRunWorker, type RunWorker } from "./run-worker";

// One worker per server process, kept on globalThis so Next's module reloads in development do not start more.
const holder = globalThis as unknown as { __skillboardWorker?: RunWorker };

/** Starts this process's run worker once (at server boot); later calls return the same one. */
export function ensureRunWorker(): RunWorker {
  holder.__skillboardWorker ??= startRunWorker({
    db: getDb(),
    maxParallelRuns: Number(process.env.SKILLBOARD_MAX_PARALLEL_RUNS ?? 4) || 4,
  });
  return holder.__skillboardWorker;
}

/** Tells the worker a run was queued, so it starts now rather than at its next poll. */
export function wakeRunWorker(): void {
  ensureRunWorker().wake();
}
