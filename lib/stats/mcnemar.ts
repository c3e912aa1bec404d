/**
 * McNemar's exact test on paired binary outcomes (EM of two runs on the same items): under the null
 * hypothesis the discordant pairs split 50/50, so the two-sided p-value is
 * min(1, 2 · P[X ≤ min(b, c)]) for X ~ Binomial(b + c, 1/2).
 *
 * @param b items right in the reference and wrong in the other run
 * @param c items wrong in the reference and right in the other run
 */
export function mcnemarExactPValue(b: number, c: number): number {
  checkCounts(b, c);
  if (b + c === 0) return 1;
  return Math.min(1, 2 * binomialHalfLowerTail(b + c, Math.min(b, c)));
}

/**
 * The one-sided exact McNemar p-value for "the other run is better": P[X ≥ c] = P[X ≤ b] for
 * X ~ Binomial(b + c, 1/2), the chance of at least c fixes among the b + c changed items if fixes and breaks
 * were equally likely. 1 when nothing changed.
 */
export function mcnemarExactOneSidedPValue(b: number, c: number): number {
  checkCounts(b, c);
  if (b + c === 0) return 1;
  return Math.min(1, binomialHalfLowerTail(b + c, b));
}

function checkCounts(b: number, c: number): void {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError("counts must be non-negative integers");
}

/** P[X ≤ k] for X ~ Binomial(n, 1/2), summed in log space: 0.5^n underflows for n > 1074. */
function binomialHalfLowerTail(n: number, k: number): number {
  const logTerms: number[] = [];
  let logChoose = 0; // ln C(n, 0)
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    logTerms.push(logChoose - n * Math.LN2);
  }
  const max = Math.max(...logTerms);
  return Math.exp(max) * logTerms.reduce((sum, term) => sum + Math.exp(term - max), 0);
}
