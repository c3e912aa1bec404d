import {
  countCachedResults, getFailureReasons, getItemTrialCounts, getRunCurve, getRunWithNames, listRunWorkers, type CurvePoint, type Db, type FailureReasonCount,
} from "@/lib/db";
import { summarizeTrials, type TrialSummary } from "@/lib/runs/trials";
import { pricesForDisplay, usageCost, type UsageCost } from "@/lib/model/prices";
import { computeLiveStats, type LiveStats } from "@/lib/runs/live-stats";
import { toRunSummary, type RunSummary } from "./run-summary";

/** What GET /api/runs/[id]/live returns, and what the run page renders first. */
export interface RunLivePayload {
  run: RunSummary;
  stats: LiveStats;
  curve: CurvePoint[];
  failureReasons: FailureReasonCount[];
  /** Items answered from the response cache (null when the run does not use it). */
  cachedItems: number | null;
  /** What the run's tokens cost at the model's price, and where the price comes from; usd null when no price is known. */
  cost: UsageCost;
  /** Runs with repeated trials: consistency per item, pass@k, pass^k and the item-level EM (null for one trial). */
  trials: TrialSummary | null;
  /**
   * PostgreSQL's queue: the worker processes on the run now (any machine), with their share of its concurrency and
   * their gauges; the run's in-flight, retrying and rate-limited counts are their sums. Empty otherwise.
   */
  workers: RunWorkerView[];
}

export interface RunWorkerView {
  name: string;
  host: string;
  slots: number;
  inFlight: number;
  retrying: number;
  rateLimited: number;
  /** ISO time of its last heartbeat */
  heartbeatAt: string;
}

// Enough points for a smooth line at the chart's width, whatever the run's size: the server downsamples.
export const CURVE_MAX_POINTS = 300;
const FAILURE_REASONS_SHOWN = 6;

/** The live view of a run; a NotFoundError for an unknown run (the route answers 404, the page not-found). */
export async function loadRunLive(db: Db, runId: number, now: Date = new Date()): Promise<RunLivePayload> {
  const view = await getRunWithNames(db, runId);
  const k = view.config.settings.trials;
  const [curve, failureReasons, cachedItems, trialCounts, workers] = await Promise.all([
    getRunCurve(db, view.id, CURVE_MAX_POINTS),
    getFailureReasons(db, view, FAILURE_REASONS_SHOWN),
    view.config.settings.cache ? countCachedResults(db, view.id) : Promise.resolve(null),
    k > 1 ? getItemTrialCounts(db, view.id) : Promise.resolve(null),
    listRunWorkers(db, view.id),
  ]);
  const trials = trialCounts ? summarizeTrials(trialCounts, k) : null;
  return { run: toRunSummary(view), stats: computeLiveStats(view, now), curve, failureReasons, cachedItems, cost: usageCost(view, pricesForDisplay()), trials,
    workers: workers.map((w) => ({
      name: w.name, host: w.host, slots: w.slots, inFlight: w.inFlight, retrying: w.retrying, rateLimited: w.rateLimited, heartbeatAt: w.heartbeatAt.toISOString(),
    })),
  };
}
