/**
 * A run keeps running sums (emSum, f1Sum, …) beside its count of finished items, so its means are one division away.
 * This is that division, in one place: null while nothing is done (a "–" in the page, never a 0 or a NaN).
 */
export function meanOf(sum: number, count: number): number | null {
  return count > 0 ? sum / count : null;
}

export interface RunSums {
  nDone: number;
  emSum: number;
  f1Sum: number;
  subEmSum: number;
  latencyMsSum: number;
}

export interface RunMeans {
  em: number | null;
  f1: number | null;
  subEm: number | null;
  latencyMs: number | null;
}

/** A run's mean EM, F1, sub-EM and latency over the items it has finished. */
export function runMeans(run: RunSums): RunMeans {
  return {
    em: meanOf(run.emSum, run.nDone),
    f1: meanOf(run.f1Sum, run.nDone),
    subEm: meanOf(run.subEmSum, run.nDone),
    latencyMs: meanOf(run.latencyMsSum, run.nDone),
  };
}
