import { describe, expect, it } from "vitest";
import { mcnemarExactOneSidedPValue, mcnemarExactPValue } from "@/lib/stats";

// Expected values worked out by hand from p = min(1, 2 · Σ_{i ≤ min(b,c)} C(b+c, i) / 2^(b+c)).
describe("mcnemarExactPValue", () => {
  it("is 1 with no discordant pairs, and with a single one", () => {
    expect(mcnemarExactPValue(0, 0)).toBe(1);
    expect(mcnemarExactPValue(0, 1)).toBe(1); // 2 · 1/2
    expect(mcnemarExactPValue(1, 0)).toBe(1);
  });

  it("matches hand-computed binomial tails", () => {
    expect(mcnemarExactPValue(0, 5)).toBeCloseTo(2 / 32, 12); // 0.0625
    expect(mcnemarExactPValue(2, 8)).toBeCloseTo((2 * (1 + 10 + 45)) / 1024, 12); // 0.109375
    expect(mcnemarExactPValue(1, 10)).toBeCloseTo((2 * (1 + 11)) / 2048, 12); // 0.01171875
    expect(mcnemarExactPValue(3, 10)).toBeCloseTo((2 * (1 + 13 + 78 + 286)) / 8192, 12); // 0.0922852
    expect(mcnemarExactPValue(10, 3)).toBe(mcnemarExactPValue(3, 10));
  });

  it("caps at 1 for balanced discordance", () => {
    expect(mcnemarExactPValue(5, 5)).toBe(1); // 2 · 638/1024 > 1
    expect(mcnemarExactPValue(2000, 2000)).toBe(1);
  });

  it("stays finite and tiny when every pair is discordant one way, even past float underflow of 0.5^n", () => {
    expect(mcnemarExactPValue(0, 20)).toBeCloseTo(2 / 2 ** 20, 18);
    const p = mcnemarExactPValue(0, 1500); // 2 · 0.5^1500 underflows to 0 as a double
    expect(p).toBe(0);
    const q = mcnemarExactPValue(600, 400);
    expect(q).toBeGreaterThan(0);
    expect(q).toBeLessThan(1e-8); // normal approximation with continuity correction: ≈ 3e-10
  });

  it("rejects impossible counts", () => {
    expect(() => mcnemarExactPValue(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExactPValue(1.5, 2)).toThrow(RangeError);
  });
});

// One-sided: P[X ≤ b] for X ~ Binomial(b + c, 1/2), worked out by hand.
describe("mcnemarExactOneSidedPValue", () => {
  it("is 1 with nothing changed and 1/2 for a single fix", () => {
    expect(mcnemarExactOneSidedPValue(0, 0)).toBe(1);
    expect(mcnemarExactOneSidedPValue(0, 1)).toBe(0.5);
    expect(mcnemarExactOneSidedPValue(1, 0)).toBe(1);
  });

  it("matches hand-computed binomial tails and is half the two-sided value when fixes dominate", () => {
    expect(mcnemarExactOneSidedPValue(0, 5)).toBeCloseTo(1 / 32, 12);
    expect(mcnemarExactOneSidedPValue(2, 8)).toBeCloseTo((1 + 10 + 45) / 1024, 12);
    expect(mcnemarExactOneSidedPValue(3, 10)).toBeCloseTo(mcnemarExactPValue(3, 10) / 2, 12);
    expect(mcnemarExactOneSidedPValue(8, 2)).toBeCloseTo(1013 / 1024, 12); // 1 − P[X ≥ 9] = 1 − 11/1024
  });

  it("gives a one-item gain no significance", () => {
    expect(mcnemarExactOneSidedPValue(0, 1)).toBeGreaterThan(0.05);
    expect(mcnemarExactOneSidedPValue(10, 11)).toBeGreaterThan(0.4);
  });
});
