import { describe, expect, it } from "vitest";
import { pairedBootstrapInterval } from "@/lib/stats";

describe("pairedBootstrapInterval", () => {
  it("is exactly zero for identical runs and exactly the shift for a constant difference", () => {
    const ref = [1, 0, 1, 1, 0, 0.5];
    expect(pairedBootstrapInterval(ref, ref)).toMatchObject({ mean: 0, low: 0, high: 0, n: 6, resamples: 10_000 });
    const zeros = Array(50).fill(0);
    const ones = Array(50).fill(1);
    expect(pairedBootstrapInterval(zeros, ones)).toMatchObject({ mean: 1, low: 1, high: 1 });
  });

  it("with one item, every resample is that item's difference", () => {
    expect(pairedBootstrapInterval([0.25], [1])).toMatchObject({ mean: 0.75, low: 0.75, high: 0.75, n: 1 });
  });

  it("with differences [0, 1] spans the whole resampling distribution {0, 0.5, 1}", () => {
    // P(mean* = 0) = P(mean* = 1) = 1/4, far more than 2.5 %, so both ends are reached.
    expect(pairedBootstrapInterval([0, 0], [0, 1])).toMatchObject({ mean: 0.5, low: 0, high: 1 });
  });

  it("has the width the normal approximation predicts for a large sample", () => {
    // 400 items: 80 fixed (+1), 40 broken (−1), 280 unchanged. Mean 0.1, variance 0.3 − 0.01 = 0.29,
    // standard error √(0.29/400) = 0.0269, so a 95 % interval is about 0.1 ± 0.0528.
    const ref: number[] = [];
    const other: number[] = [];
    for (let i = 0; i < 400; i++) {
      const kind = i < 80 ? "fixed" : i < 120 ? "broken" : "same";
      ref.push(kind === "fixed" ? 0 : 1);
      other.push(kind === "broken" ? 0 : 1);
    }
    const interval = pairedBootstrapInterval(ref, other);
    expect(interval.mean).toBeCloseTo(0.1, 12);
    expect(interval.high - interval.low).toBeGreaterThan(0.095);
    expect(interval.high - interval.low).toBeLessThan(0.116);
    expect((interval.low + interval.high) / 2).toBeCloseTo(0.1, 2);
  });

  it("is reproducible for a seed, and honours resamples and level", () => {
    const ref = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    const other = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? 1 : 0));
    expect(pairedBootstrapInterval(ref, other, { seed: 7 })).toEqual(pairedBootstrapInterval(ref, other, { seed: 7 }));
    const narrow = pairedBootstrapInterval(ref, other, { level: 0.5, resamples: 20_000 });
    const wide = pairedBootstrapInterval(ref, other, { level: 0.99, resamples: 20_000 });
    expect(narrow.resamples).toBe(20_000);
    expect(wide.high - wide.low).toBeGreaterThan(narrow.high - narrow.low);
  });

  it("rejects unpaired input and reports an empty comparison as NaN", () => {
    expect(() => pairedBootstrapInterval([1], [1, 0])).toThrow(RangeError);
    expect(Number.isNaN(pairedBootstrapInterval([], []).mean)).toBe(true);
  });
});

describe("several metrics in one pass", () => {
  it("gives exactly the intervals of separate bootstraps with the same seed", async () => {
    const { pairedBootstrapInterval, pairedBootstrapIntervals } = await import("@/lib/stats");
    const a = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1];
    const b = [1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1];
    const f1a = [1, 0.2, 1, 1, 0.5, 0, 1, 0.1, 1, 1, 0.3, 1];
    const f1b = [1, 1, 1, 0.4, 1, 0.2, 1, 1, 1, 1, 0.1, 1];
    const options = { resamples: 2000, seed: 7 };
    const [em, f1] = pairedBootstrapIntervals([{ reference: a, other: b }, { reference: f1a, other: f1b }], options);
    expect(em).toEqual(pairedBootstrapInterval(a, b, options));
    expect(f1).toEqual(pairedBootstrapInterval(f1a, f1b, options));
    // Hand-computed: EM moves +1 at items 2, 5, 8 and −1 at item 4, so the mean difference is 2/12.
    expect(em!.mean).toBeCloseTo(2 / 12, 12);
    expect(() => pairedBootstrapIntervals([{ reference: [1], other: [1, 2] }])).toThrow(RangeError);
    expect(pairedBootstrapIntervals([{ reference: [], other: [] }])[0]!.n).toBe(0);
  });
});
