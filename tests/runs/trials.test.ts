import { describe, expect, it } from "vitest";
import { consistencyOf, itemLevelMean, passAtK, passHatK, summarizeTrials } from "@/lib/runs/trials";

describe("trials", () => {
  it("classifies items as always right, always wrong or flaky", () => {
    expect([consistencyOf(3, 3), consistencyOf(0, 3), consistencyOf(1, 3)]).toEqual(["always_right", "always_wrong", "flaky"]);
  });

  it("pass@k and pass^k agree with counting the subsets by hand", () => {
    // 2 of 4 trials right; the 6 pairs of trials: 5 contain a right one, 1 has both right.
    expect(passAtK(2, 4, 2)).toBeCloseTo(5 / 6, 12);
    expect(passHatK(2, 4, 2)).toBeCloseTo(1 / 6, 12);
    expect(passAtK(2, 4, 1)).toBeCloseTo(0.5, 12);
    expect(passAtK(0, 4, 4)).toBe(0);
    expect(passAtK(1, 4, 4)).toBe(1);
    expect(passHatK(4, 4, 4)).toBe(1);
    expect(passHatK(3, 4, 4)).toBe(0);
    expect(() => passAtK(1, 3, 4)).toThrow(RangeError);
  });

  it("takes the run's standard error from item means, not from trials", () => {
    const { mean, standardError } = itemLevelMean([1, 0, 0.5, 0.5]);
    expect(mean).toBe(0.5);
    // sample variance 1/6 over 4 items: sqrt(1/24)
    expect(standardError).toBeCloseTo(Math.sqrt(1 / 24), 12);
    expect(itemLevelMean([1]).standardError).toBeNull();
  });
});

describe("summarizeTrials", () => {
  it("counts consistency per item and averages pass@k over the items whose k trials are done", () => {
    const summary = summarizeTrials(
      [
        { trials: 3, correct: 3, emSum: 3 },
        { trials: 3, correct: 0, emSum: 0 },
        { trials: 3, correct: 1, emSum: 1 },
        // still running: counted as flaky-or-not from what it has, left out of pass@k
        { trials: 1, correct: 1, emSum: 1 },
      ],
      3,
    );
    expect(summary).toMatchObject({ k: 3, items: 4, alwaysRight: 2, alwaysWrong: 1, flaky: 1, complete: 3 });
    expect(summary.passAtK).toBeCloseTo((1 + 0 + 1) / 3, 12);
    expect(summary.passHatK).toBeCloseTo((1 + 0 + 0) / 3, 12);
    expect(summary.em.mean).toBeCloseTo((1 + 0 + 1 / 3 + 1) / 4, 12);
    expect(summarizeTrials([{ trials: 1, correct: 0, emSum: 0 }], 2).passAtK).toBeNull();
  });
});
