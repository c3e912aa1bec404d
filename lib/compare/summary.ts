import { pairedBootstrapIntervals, type BootstrapInterval } from "../stats/bootstrap";
import { mcnemarExactPValue } from "../stats/mcnemar";
import { countOutcomes, type OutcomeCounts } from "../stats/paired-outcomes";
import type { PairedScores } from "./types";

/** Fixed so that the same comparison always shows the same intervals (a shared link reproduces the page). */
export const BOOTSTRAP_SEED = 20261130;
/** Never fewer: the percentile interval's ends are noisy below about 10,000 resamples. */
export const BOOTSTRAP_RESAMPLES = 10_000;
export const CONFIDENCE_LEVEL = 0.95;

/** How a run differs from the reference on the items both scored. */
export interface RunDifference {
  /** Items both runs scored: everything below is over these alone. */
  n: number;
  onlyReference: number;
  onlyOther: number;
  /** Means over the paired items (they can differ from the runs' own means when the item sets differ). */
  referenceEm: number;
  otherEm: number;
  em: BootstrapInterval;
  f1: BootstrapInterval;
  subEm: BootstrapInterval;
  /** McNemar's exact test on EM: b = broken (right → wrong), c = fixed (wrong → right). */
  mcnemarP: number;
  outcomes: OutcomeCounts;
}

/** The paired comparison of one run against the reference: bootstrap intervals (seeded), McNemar, outcome counts. */
export function describeDifference(paired: PairedScores, options: { resamples?: number } = {}): RunDifference {
  const resamples = Math.max(BOOTSTRAP_RESAMPLES, options.resamples ?? BOOTSTRAP_RESAMPLES);
  const column = (side: "reference" | "other", key: "em" | "f1" | "subEm") => Float64Array.from(paired[side], (score) => score[key]);
  // One pass for the three metrics (the same resampled items for each): identical to three separate bootstraps.
  const [em, f1, subEm] = pairedBootstrapIntervals(
    (["em", "f1", "subEm"] as const).map((key) => ({ reference: column("reference", key), other: column("other", key) })),
    { resamples, level: CONFIDENCE_LEVEL, seed: BOOTSTRAP_SEED },
  ) as [BootstrapInterval, BootstrapInterval, BootstrapInterval];
  const outcomes = countOutcomes(
    paired.itemIds.map((itemId, index) => ({ itemId, reference: paired.reference[index]!, other: paired.other[index]! })),
  );
  const n = paired.itemIds.length;
  const mean = (side: "reference" | "other") => (n === 0 ? Number.NaN : paired[side].reduce((sum, score) => sum + score.em, 0) / n);
  return {
    n,
    onlyReference: paired.onlyReference.length,
    onlyOther: paired.onlyOther.length,
    referenceEm: mean("reference"),
    otherEm: mean("other"),
    em,
    f1,
    subEm,
    mcnemarP: mcnemarExactPValue(outcomes.broken, outcomes.fixed),
    outcomes,
  };
}

/** "significant" only when the interval excludes 0: the page says in words what the numbers mean. */
export function verdict(difference: RunDifference): "better" | "worse" | "inconclusive" | "no items" {
  if (difference.n === 0) return "no items";
  if (difference.em.low > 0) return "better";
  if (difference.em.high < 0) return "worse";
  return "inconclusive";
}
