/**
 * Repeated trials of an item: per-item consistency, pass@k and pass^k, and the standard error of a run's mean from
 * the item-level means (trials of one item are not independent samples of the run).
 */

export type Consistency = "always_right" | "always_wrong" | "flaky";

export function consistencyOf(correct: number, trials: number): Consistency {
  if (trials <= 0) throw new RangeError("an item needs at least one trial");
  if (correct === trials) return "always_right";
  if (correct === 0) return "always_wrong";
  return "flaky";
}

/** C(n, k) / C(m, k) as a product, exact enough for any n the UI shows (no factorial overflow). */
function comboRatio(n: number, m: number, k: number): number {
  let ratio = 1;
  for (let i = 0; i < k; i++) ratio *= (n - i) / (m - i);
  return ratio;
}

/**
 * pass@k of one item with `correct` of `n` trials right: the chance that at least one of k trials drawn without
 * replacement is right, 1 − C(n−c, k)/C(n, k) (the unbiased estimator of Chen et al. 2021).
 */
export function passAtK(correct: number, n: number, k: number): number {
  if (!(k >= 1 && k <= n)) throw new RangeError(`pass@k needs 1 <= k <= n, got k=${k}, n=${n}`);
  if (n - correct < k) return 1;
  return 1 - comboRatio(n - correct, n, k);
}

/** pass^k of one item: the chance that all k trials drawn without replacement are right, C(c, k)/C(n, k). */
export function passHatK(correct: number, n: number, k: number): number {
  if (!(k >= 1 && k <= n)) throw new RangeError(`pass^k needs 1 <= k <= n, got k=${k}, n=${n}`);
  if (correct < k) return 0;
  return comboRatio(correct, n, k);
}

/** Mean and standard error of the run's score over items, each item weighted once (its mean over trials). */
export function itemLevelMean(itemMeans: readonly number[]): { mean: number; standardError: number | null } {
  const n = itemMeans.length;
  if (n === 0) return { mean: 0, standardError: null };
  const mean = itemMeans.reduce((sum, x) => sum + x, 0) / n;
  if (n < 2) return { mean, standardError: null };
  const variance = itemMeans.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1);
  return { mean, standardError: Math.sqrt(variance / n) };
}

/** One item's trials in a run: how many there are, how many were right (EM 1), and the sum of their EM. */
export interface ItemTrialCounts {
  trials: number;
  correct: number;
  emSum: number;
}

/** What the run page and the CLI say about a run with repeated trials. */
export interface TrialSummary {
  /** The trials per item the run was asked for. */
  k: number;
  items: number;
  alwaysRight: number;
  alwaysWrong: number;
  flaky: number;
  /** Over the items with all k trials done (null while none has): the chance one of k / all k trials are right. */
  passAtK: number | null;
  passHatK: number | null;
  /** Items with all k trials done. */
  complete: number;
  /** EM as the mean of item means, with its standard error over items. */
  em: { mean: number; standardError: number | null };
}

export function summarizeTrials(items: readonly ItemTrialCounts[], k: number): TrialSummary {
  const summary = { k, items: items.length, alwaysRight: 0, alwaysWrong: 0, flaky: 0, complete: 0 };
  let passAt = 0;
  let passHat = 0;
  for (const item of items) {
    const consistency = consistencyOf(item.correct, item.trials);
    if (consistency === "always_right") summary.alwaysRight++;
    else if (consistency === "always_wrong") summary.alwaysWrong++;
    else summary.flaky++;
    if (item.trials >= k) {
      summary.complete++;
      passAt += passAtK(item.correct, item.trials, k);
      passHat += passHatK(item.correct, item.trials, k);
    }
  }
  return {
    ...summary,
    passAtK: summary.complete > 0 ? passAt / summary.complete : null,
    passHatK: summary.complete > 0 ? passHat / summary.complete : null,
    em: itemLevelMean(items.map((item) => item.emSum / item.trials)),
  };
}
