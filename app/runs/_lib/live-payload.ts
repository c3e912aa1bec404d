import { getFailureReasons, getRunCurve, getRunWithNames, NotFoundError, type CurvePoint, type Db, type FailureReasonCount } from "@/lib/db";
import { computeLiveStats, type LiveStats } from "@/lib/runs/live-stats";
import { RunIdSchema } from "./run-id";
import { toRunSummary, type RunSummary } from "./run-summary";

/** What GET /api/runs/[id]/live returns, and what the run page renders first. */
export interface RunLivePayload {
  run: RunSummary;
  stats: LiveStats;
  curve: CurvePoint[];
  failureReasons: FailureReasonCount[];
}

export type RunLiveResult = { status: 200; body: RunLivePayload } | { status: 400 | 404; body: { error: string } };

// Enough points for a smooth line at the chart's width, whatever the run's size: the server downsamples.
export const CURVE_MAX_POINTS = 300;
const FAILURE_REASONS_SHOWN = 6;

/** The live view of a run from its id as written in the URL: 400 for a malformed id, 404 for an unknown run. */
export async function loadRunLive(db: Db, rawId: string, now: Date = new Date()): Promise<RunLiveResult> {
  const id = RunIdSchema.safeParse(rawId);
  if (!id.success) return { status: 400, body: { error: id.error.issues[0]?.message ?? "invalid run id" } };
  try {
    const view = await getRunWithNames(db, id.data);
    const [curve, failureReasons] = await Promise.all([getRunCurve(db, view.id, CURVE_MAX_POINTS), getFailureReasons(db, view, FAILURE_REASONS_SHOWN)]);
    return { status: 200, body: { run: toRunSummary(view), stats: computeLiveStats(view, now), curve, failureReasons } };
  } catch (error) {
    if (error instanceof NotFoundError) return { status: 404, body: { error: `run ${id.data} not found` } };
    throw error;
  }
}
