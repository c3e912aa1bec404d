import { describe, expect, it } from "vitest";
import { describeDifference, describeDifferenceCached, pairScores, type ItemScore } from "@/lib/compare";

const score = (itemId: string, em: number): ItemScore => ({ itemId, datasetItemId: Number(itemId), em, f1: em, subEm: em, status: em ? "correct" : "wrong", latencyMs: 5, tokens: 10 });
const scores = (ems: number[]) => ems.map((em, i) => score(String(i + 1), em));

describe("the compare page's remembered differences", () => {
  const reference = scores([0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
  const other = scores([1, 1, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1]);

  it("gives what describeDifference gives, and the same result again without recomputing it", () => {
    const first = describeDifferenceCached(pairScores(reference, other));
    expect(first).toEqual(describeDifference(pairScores(reference, other)));
    // Fresh arrays with the same content (the next request reads them anew): the stored result itself.
    expect(describeDifferenceCached(pairScores(scores(reference.map((s) => s.em)), scores(other.map((s) => s.em))))).toBe(first);
  });

  it("never serves a stale result when a run's scores changed (a live or retried run)", () => {
    const before = describeDifferenceCached(pairScores(reference, other));
    const changed = other.map((s, i) => (i === 4 ? score(s.itemId, 1) : s));
    const after = describeDifferenceCached(pairScores(reference, changed));
    expect(after).not.toBe(before);
    expect(after).toEqual(describeDifference(pairScores(reference, changed)));
    expect(after.em.mean).toBeCloseTo(before.em.mean + 1 / 12, 12);
    // A run that lost an item it alone scored differs only in what is unpaired: still a different answer.
    const fewer = describeDifferenceCached(pairScores(reference, other.slice(0, -1)));
    expect(fewer.n).toBe(11);
  });
});
