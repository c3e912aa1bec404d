import { describe, expect, it } from "vitest";
import { describeDifference, pairScores, verdict, type ItemScore } from "@/lib/compare";
import { mcnemarExactPValue } from "@/lib/stats";

const score = (itemId: string, em: number, f1 = em): ItemScore => ({ itemId, datasetItemId: Number(itemId), em, f1, subEm: em, status: "x", latencyMs: 0, tokens: 0 });

describe("describing a run's difference from the reference", () => {
  // 20 items: 6 fixed, 1 broken, 8 both right, 5 both wrong. Reference EM 9/20, other EM 14/20: ΔEM = +0.25.
  const outcomes = [...Array<[number, number]>(6).fill([0, 1]), [1, 0] as [number, number], ...Array<[number, number]>(8).fill([1, 1]), ...Array<[number, number]>(5).fill([0, 0])];
  const reference = outcomes.map(([a], i) => score(String(i + 1), a));
  const other = outcomes.map(([, b], i) => score(String(i + 1), b));
  const difference = describeDifference(pairScores(reference, other));

  it("counts, means and McNemar's p match the hand-computed values", () => {
    expect(difference.n).toBe(20);
    expect(difference.referenceEm).toBeCloseTo(0.45, 12);
    expect(difference.otherEm).toBeCloseTo(0.7, 12);
    expect(difference.em.mean).toBeCloseTo(0.25, 12);
    expect(difference.outcomes).toMatchObject({ fixed: 6, broken: 1, bothRight: 8, bothWrong: 5 });
    // b = 1, c = 6: 2 · (C(7,0) + C(7,1)) / 2^7 = 16/128 = 0.125.
    expect(difference.mcnemarP).toBeCloseTo(0.125, 12);
    expect(difference.mcnemarP).toBe(mcnemarExactPValue(1, 6));
  });

  it("uses at least 10,000 seeded resamples, so the interval is the same every time", () => {
    expect(difference.em.resamples).toBe(10_000);
    expect(describeDifference(pairScores(reference, other), { resamples: 100 }).em.resamples).toBe(10_000);
    const again = describeDifference(pairScores(reference, other));
    expect(again.em).toEqual(difference.em);
    // The differences are 6 × (+1), 1 × (−1), 13 × 0: variance 0.35 − 0.25² = 0.2875, standard error √(0.2875/20) ≈ 0.120,
    // so the 95 % interval is about 0.25 ± 1.96 · 0.120 = [0.015, 0.485] (the bootstrap's means move in steps of 1/20).
    expect(Math.abs(difference.em.low - 0.015)).toBeLessThan(0.06);
    expect(Math.abs(difference.em.high - 0.485)).toBeLessThan(0.06);
    // The interval's low end exactly: a resample's mean is (#(+1) − #(−1)) / 20 over 20 draws with P(+1) = 0.3,
    // P(−1) = 0.05. Summing the trinomial, P(mean ≤ −0.05) = 0.98 % and P(mean ≤ 0) = 2.84 %, so the 2.5 % quantile
    // (between the 250th and 251st of 10,000 sorted means, where about 98 and 284 are expected) is a mean of 0.
    expect(difference.em.low).toBe(0);
    // 0 is not above 0: an improvement of +0.25 that this sample cannot tell from none.
    expect(verdict(difference)).toBe("inconclusive");
  });

  it("has nothing to say without paired items", () => {
    const empty = describeDifference(pairScores([score("1", 1)], [score("2", 0)]));
    expect(empty.n).toBe(0);
    expect(empty.onlyReference).toBe(1);
    expect(empty.onlyOther).toBe(1);
    expect(empty.mcnemarP).toBe(1);
    expect(verdict(empty)).toBe("no items");
  });
});
