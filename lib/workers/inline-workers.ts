/**
 * The run and optimisation workers of one process (and SQLite's search indexer), together: what the dashboard's worker
 * process (`worker`, started by the server) runs, and what the server runs in its own process with
 * SKILLBOARD_WORKER=inline.
 */
import type { Db } from "../db";
import { engineOf } from "../db/engine";
import { startOptimizationWorker } from "../optimize/engine/worker";
import { DEFAULT_DRAIN_MS } from "../rollout/queue-participation";
import { startQueueWorker } from "../rollout/queue-worker";
import { startRunWorker } from "../rollout/run-worker";
import { startSearchIndexer } from "./search-indexer";

export interface Workers {
  /** Looks for work now (a run or an optimisation was queued) instead of at the next poll. */
  wake(): void;
  /** Stops taking work; what is under way is released, still "running", for the next start to resume. */
  stop(): Promise<void>;
}

export interface WorkerLimits {
  maxParallelRuns?: number;
  maxParallelOptimizations?: number;
  /** PostgreSQL's queue: items in flight in this process over all runs (`worker --concurrency`). */
  concurrency?: number;
  /** PostgreSQL's queue: the worker's name on the run page and on agent items (`worker --name`). */
  name?: string;
  /** PostgreSQL's queue: on stop, how long the items in flight may take to finish before they are aborted (`worker --drain-seconds`). */
  drainSeconds?: number;
}

/** SKILLBOARD_WORKER_DRAIN_S, checked: a whole number of seconds, 0 or more (default 20). */
export function workerDrainSeconds(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const value = env.SKILLBOARD_WORKER_DRAIN_S;
  if (value === undefined || value.trim() === "") return DEFAULT_DRAIN_MS / 1000;
  if (!/^\d+$/.test(value.trim())) throw new Error(`SKILLBOARD_WORKER_DRAIN_S must be a whole number of seconds, 0 or more; got "${value}"`);
  return Number(value);
}

/**
 * The limits set in the environment (SKILLBOARD_MAX_PARALLEL_RUNS, default 4; …_OPTIMIZATIONS, default 1; on
 * PostgreSQL SKILLBOARD_WORKER_CONCURRENCY, default 256, and SKILLBOARD_WORKER_DRAIN_S, default 20, which `worker
 * --concurrency` and `--drain-seconds` override). A drain time that is not a number of seconds throws, naming it.
 */
export function workerLimitsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): WorkerLimits & Required<Pick<WorkerLimits, "maxParallelRuns" | "maxParallelOptimizations" | "drainSeconds">> {
  const concurrency = Number(env.SKILLBOARD_WORKER_CONCURRENCY);
  return {
    maxParallelRuns: Number(env.SKILLBOARD_MAX_PARALLEL_RUNS ?? 4) || 4,
    maxParallelOptimizations: Number(env.SKILLBOARD_MAX_PARALLEL_OPTIMIZATIONS ?? 1) || 1,
    ...(Number.isInteger(concurrency) && concurrency > 0 ? { concurrency } : {}),
    drainSeconds: workerDrainSeconds(env),
  };
}

export function startInlineWorkers(db: Db, limits: WorkerLimits = workerLimitsFromEnv(), log?: (line: string) => void): Workers {
  // SQLite: one process executes a run (its lease). PostgreSQL: every worker takes chunks of every run (the queue).
  const runs =
    engineOf(db) === "postgresql"
      ? startQueueWorker({ db, name: limits.name, concurrency: limits.concurrency, drainMs: (limits.drainSeconds ?? workerDrainSeconds()) * 1000, log })
      : startRunWorker({ db, maxParallelRuns: limits.maxParallelRuns, log });
  const optimizations = startOptimizationWorker({ db, maxParallel: limits.maxParallelOptimizations, log });
  const searchIndex = startSearchIndexer(db, { log });
  return {
    wake() {
      runs.wake();
      optimizations.wake();
    },
    async stop() {
      await Promise.all([runs.stop(), optimizations.stop(), searchIndex.stop()]);
    },
  };
}
