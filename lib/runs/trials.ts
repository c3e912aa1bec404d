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
