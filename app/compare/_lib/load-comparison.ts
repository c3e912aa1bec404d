import { breakdownByMetadata, describeDifferenceCached, pairScores, type FieldBreakdown, type PairedScores, type RunDifference } from "@/lib/compare";
import { pricesForDisplay, usageCost, type UsageCost } from "@/lib/model/prices";
import { getItemMetadata, getRunScores, type Db, NotFoundError, getRunCurve, getRunWithNames, type CurvePoint, type RunWithNames } from "@/lib/db";

export interface ComparedRun {
  run: RunWithNames;
  /** Null for the reference. */
  difference: RunDifference | null;
  paired: PairedScores | null;
  curve: CurvePoint[];
  /** The whole run's cost at its model's price (usd null: unknown). */
  cost: UsageCost;
}

export type ComparisonLoad =
  | { ok: true; runs: ComparedRun[]; breakdown: FieldBreakdown[]; statsMs: number }
  | { ok: false; message: string; runs: RunWithNames[] };

/**
 * Everything the comparison page shows for a selection, computed once per request on the server: the bootstrap
 * is O(items × 10,000) per metric and run, too heavy to repeat in a browser.
 */
export async function loadComparison(db: Db, runIds: readonly number[], vs: number | undefined): Promise<ComparisonLoad> {
  const views: RunWithNames[] = [];
  for (const id of runIds) {
    try {
      views.push(await getRunWithNames(db, id));
    } catch (error) {
      if (error instanceof NotFoundError) return { ok: false, message: `There is no run #${id}.`, runs: views };
      throw error;
    }
  }
  const reference = views[0]!;
  const elsewhere = views.filter((run) => run.datasetId !== reference.datasetId);
  if (elsewhere.length > 0) {
    const names = elsewhere.map((run) => `#${run.id} (${run.datasetName})`).join(", ");
    return { ok: false, message: `Only runs on the same dataset can be compared: the reference #${reference.id} is on ${reference.datasetName}, but ${names} not.`, runs: views };
  }
  const [scores, curves] = await Promise.all([
    Promise.all(views.map((run) => getRunScores(db, run.id))),
    Promise.all(views.map((run) => getRunCurve(db, run.id))),
  ]);
  const prices = pricesForDisplay();
  const started = performance.now();
  const runs: ComparedRun[] = views.map((run, index) => {
    const cost = usageCost(run, prices);
    if (index === 0) return { run, difference: null, paired: null, curve: curves[index]!, cost };
    const paired = pairScores(scores[0]!, scores[index]!);
    return { run, difference: describeDifferenceCached(paired), paired, curve: curves[index]!, cost };
  });
  const statsMs = performance.now() - started;
  const focus = runs.find((entry) => entry.run.id === vs) ?? runs[1];
  const breakdown = focus?.paired ? breakdownByMetadata(focus.paired, await getItemMetadata(db, reference.datasetId)) : [];
  return { ok: true, runs, breakdown, statsMs };
}
