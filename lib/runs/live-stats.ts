import { meanOf } from "./metrics";
import type { RunStatus } from "./types";

/** What the run page shows about a run's progress, derived from the stored counters alone. */
export interface LiveStats {
  done: number;
  total: number;
  /** done / total, clamped to [0, 1]. */
  fraction: number;
  correct: number;
  wrong: number;
  errors: number;
  timeouts: number;
  /** Gauges of the executing process; 0 unless the run is being executed. */
  inFlight: number;
  retrying: number;
  rateLimited: number;
  /** Adaptive concurrency: the limit in force now (null when the concurrency is fixed or nothing runs). */
  concurrencyLimit: number | null;
  /** Of the current execution while it runs; the average over all execution time once it stopped. 0 when unknown. */
  itemsPerMinute: number;
  tokensPerSecond: number;
  /** Seconds until the run should finish at the current rate; null when it is not executing or the rate is unknown. */
  etaSeconds: number | null;
  /** Execution time over every start and resume (queued or paused time not counted). */
  elapsedSeconds: number;
  /** Means over the completed items; null before the first one. */
  em: number | null;
  f1: number | null;
  subEm: number | null;
}

/** The run's stored counters and clock (a RunRecord fits). */
export interface LiveStatsInput {
  status: RunStatus;
  workerId: string | null;
  nDone: number;
  itemsTotal: number;
  emSum: number;
  f1Sum: number;
  subEmSum: number;
  nAgentOk: number;
  nErrors: number;
  nTimeouts: number;
  promptTokens: number;
  completionTokens: number;
  inFlight: number;
  retryingNow: number;
  rateLimitedNow: number;
  concurrencyLimitNow?: number | null;
  resumedAt: Date | null;
  resumedDone: number;
  activeMs: number;
}

// While a run executes, below this much time its current rate is mostly noise (one fast item would read as thousands
// per minute). A run that stopped has its whole execution measured, however short: its rate is a fact, not a guess.
const MIN_RATE_WINDOW_S = 1;

export function computeLiveStats(run: LiveStatsInput, now: Date): LiveStats {
  const done = run.nDone;
  const total = run.itemsTotal;
  // EM per item is 0 or 1, so the sum counts the correct items (rounded against float drift).
  const correct = Math.round(run.emSum);
  // A run left "running" without a lease holder is waiting to be resumed: its gauges and clock are stale.
  const executing = run.status === "running" && run.workerId !== null && run.resumedAt !== null;
  // finishRun/releaseRun add the current execution to activeMs; while executing it holds only earlier ones.
  const currentS = executing && run.resumedAt ? Math.max(0, (now.getTime() - run.resumedAt.getTime()) / 1000) : 0;
  const elapsedSeconds = run.activeMs / 1000 + currentS;

  const itemsPerSecond = executing
    ? ratePerSecond(done - run.resumedDone, currentS, MIN_RATE_WINDOW_S)
    : ratePerSecond(done, elapsedSeconds, 0);
  // Tokens are only stored as run totals, so the current rate is the mean tokens per item times the item rate
  // (for a run never resumed this equals tokens / elapsed exactly).
  const tokensPerItem = done > 0 ? (run.promptTokens + run.completionTokens) / done : 0;
  const remaining = Math.max(0, total - done);

  return {
    done,
    total,
    fraction: total > 0 ? Math.min(1, done / total) : 0,
    correct,
    wrong: Math.max(0, run.nAgentOk - correct),
    errors: run.nErrors,
    timeouts: run.nTimeouts,
    inFlight: executing ? run.inFlight : 0,
    retrying: executing ? run.retryingNow : 0,
    rateLimited: executing ? run.rateLimitedNow : 0,
    concurrencyLimit: executing ? (run.concurrencyLimitNow ?? null) : null,
    itemsPerMinute: itemsPerSecond * 60,
    tokensPerSecond: tokensPerItem * itemsPerSecond,
    etaSeconds: executing && itemsPerSecond > 0 ? remaining / itemsPerSecond : null,
    elapsedSeconds,
    em: meanOf(run.emSum, done),
    f1: meanOf(run.f1Sum, done),
    subEm: meanOf(run.subEmSum, done),
  };
}

function ratePerSecond(items: number, seconds: number, minSeconds: number): number {
  return items > 0 && seconds > 0 && seconds >= minSeconds ? items / seconds : 0;
}
