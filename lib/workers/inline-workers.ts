/**
 * The run and optimisation workers of one process (and SQLite's search indexer), together: what the dashboard's worker process (`worker`, started
 * by the server) runs, and what the server runs in its own process with SKILLBOARD_WORKER=inline.
 */
import type { Db } from "../db";
import { engineOf } from "../db/engine";
import { startOptimizationWorker } from "../optimize/engine/worker";
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
}

/**
 * The limits set in the environment (SKILLBOARD_MAX_PARALLEL_RUNS, default 4; …_OPTIMIZATIONS, default 1; on
 * PostgreSQL SKILLBOARD_WORKER_CONCURRENCY, default 256, which `worker --concurrency` overrides).
 */
export function workerLimitsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): WorkerLimits & Required<Pick<WorkerLimits, "maxParallelRuns" | "maxParallelOptimizations">> {
  const concurrency = Number(env.SKILLBOARD_WORKER_CONCURRENCY);
  return {
    maxParallelRuns: Number(env.SKILLBOARD_MAX_PARALLEL_RUNS ?? 4) || 4,
    maxParallelOptimizations: Number(env.SKILLBOARD_MAX_PARALLEL_OPTIMIZATIONS ?? 1) || 1,
    ...(Number.isInteger(concurrency) && concurrency > 0 ? { concurrency } : {}),
  };
}

export function startInlineWorkers(db: Db, limits: WorkerLimits = workerLimitsFromEnv(), log?: (line: string) => void): Workers {
  // SQLite: one process executes a run (its lease). PostgreSQL: every worker takes chunks of every run (the queue).
  const runs =
    engineOf(db) === "postgresql"
      ? startQueueWorker({ db, name: limits.name, concurrency: limits.concurrency, log })
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
