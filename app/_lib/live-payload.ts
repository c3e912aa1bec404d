import { countCachedResults, getFailureReasons, getItemTrialCounts, getRunCurve, getRunWithNames, type CurvePoint, type Db, type FailureReasonCount } from "@/lib/db";
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
}

// Enough points for a smooth line at the chart's width, whatever the run's size: the server downsamples.
export const CURVE_MAX_POINTS = 300;
const FAILURE_REASONS_SHOWN = 6;

/** The live view of a run; a NotFoundError for an unknown run (the route answers 404, the page not-found). */
export async function loadRunLive(db: Db, runId: number, now: Date = new Date()): Promise<RunLivePayload> {
  const view = await getRunWithNames(db, runId);
  const k = view.config.settings.trials;
  const [curve, failureReasons, cachedItems, trialCounts] = await Promise.all([
    getRunCurve(db, view.id, CURVE_MAX_POINTS),
    getFailureReasons(db, view, FAILURE_REASONS_SHOWN),
    view.config.settings.cache ? countCachedResults(db, view.id) : Promise.resolve(null),
    k > 1 ? getItemTrialCounts(db, view.id) : Promise.resolve(null),
  ]);
  const trials = trialCounts ? summarizeTrials(trialCounts, k) : null;
  return { run: toRunSummary(view), stats: computeLiveStats(view, now), curve, failureReasons, cachedItems, cost: usageCost(view, pricesForDisplay()), trials };
}
