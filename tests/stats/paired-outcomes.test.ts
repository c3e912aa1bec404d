import { describe, expect, it } from "vitest";
import { countOutcomes, pairedOutcome, type ScoredPair } from "@/lib/stats";

const pair = (itemId: string, ref: [number, number], other: [number, number]): ScoredPair => ({
  itemId,
  reference: { em: ref[0], f1: ref[1] },
  other: { em: other[0], f1: other[1] },
});

describe("paired outcomes", () => {
  it("classifies each item by its EM before and after", () => {
    expect(pairedOutcome(0, 1)).toBe("fixed");
    expect(pairedOutcome(1, 0)).toBe("broken");
    expect(pairedOutcome(1, 1)).toBe("both-right");
    expect(pairedOutcome(0, 0)).toBe("both-wrong");
  });

  it("counts the groups, and F1 moves among the items wrong in both", () => {
    const counts = countOutcomes([
      pair("a", [0, 0.5], [1, 1]),
      pair("b", [1, 1], [0, 0.4]),
      pair("c", [1, 1], [1, 1]),
      pair("d", [0, 0.2], [0, 0.6]),
      pair("e", [0, 0.6], [0, 0.2]),
      pair("f", [0, 0], [0, 0]),
      pair("g", [0, 0], [1, 1]),
    ]);
    expect(counts).toEqual({ fixed: 2, broken: 1, bothRight: 1, bothWrong: 3, f1Up: 1, f1Down: 1, f1Same: 1 });
  });

  it("is all zeros for no pairs", () => {
    expect(countOutcomes([])).toEqual({ fixed: 0, broken: 0, bothRight: 0, bothWrong: 0, f1Up: 0, f1Down: 0, f1Same: 0 });
  });
});
