import { describe, expect, it } from "vitest";
import { meanOverTrials, pairScores, type ItemScore } from "@/lib/compare";

const score = (itemId: string, em: number, status = em >= 1 ? "correct" : "wrong"): ItemScore => ({
  itemId, datasetItemId: Number(itemId.slice(1)), em, f1: em, subEm: em, status, latencyMs: 100, tokens: 10,
});

describe("meanOverTrials", () => {
  it("averages each item's trials into one score, so Compare pairs items, not trials", () => {
    const rows = [score("q1", 1), score("q2", 0), score("q1", 0), score("q2", 0), score("q1", 1), score("q2", 0, "error")];
    const means = meanOverTrials(rows);
    expect(means.map((m) => [m.itemId, m.em, m.status])).toEqual([["q1", 2 / 3, "mixed"], ["q2", 0, "mixed"]]);
    // Paired with a one-trial run: one pair per item.
    const paired = pairScores(means, [score("q1", 1), score("q2", 1)]);
    expect(paired.itemIds).toEqual(["q1", "q2"]);
    expect(paired.reference.map((m) => m.em)).toEqual([2 / 3, 0]);
  });

  it("passes a run without repeated trials through unchanged", () => {
    const rows = [score("q1", 1), score("q2", 0)];
    expect(meanOverTrials(rows)).toEqual(rows);
  });
});
