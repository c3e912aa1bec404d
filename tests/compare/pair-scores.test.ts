import { describe, expect, it } from "vitest";
import { itemsInGroup, neighboursInGroup, outcomeGroupsOf, pairScores, type ItemScore } from "@/lib/compare";

const score = (itemId: string, datasetItemId: number, em: number, f1: number): ItemScore => ({
  itemId, datasetItemId, em, f1, subEm: em, status: em >= 1 ? "correct" : "wrong", latencyMs: 10, tokens: 5,
});

describe("pairing two runs by item id", () => {
  // Results arrive in completion order, not dataset order; "x" only the reference scored, "y" only the other.
  const reference = [score("c", 3, 1, 1), score("a", 1, 0, 0.2), score("x", 9, 1, 1), score("b", 2, 1, 1), score("d", 4, 0, 0.5), score("e", 5, 0, 0.4)];
  const other = [score("b", 2, 0, 0.3), score("a", 1, 1, 1), score("y", 10, 1, 1), score("d", 4, 0, 0.8), score("c", 3, 1, 1), score("e", 5, 0, 0.1)];
  const paired = pairScores(reference, other);

  it("aligns the items both scored in dataset order and lists the rest per side", () => {
    expect(paired.itemIds).toEqual(["a", "b", "c", "d", "e"]);
    expect(paired.datasetItemIds).toEqual([1, 2, 3, 4, 5]);
    expect(paired.reference.map((s) => s.em)).toEqual([0, 1, 1, 0, 0]);
    expect(paired.other.map((s) => s.em)).toEqual([1, 0, 1, 0, 0]);
    expect(paired.onlyReference).toEqual(["x"]);
    expect(paired.onlyOther).toEqual(["y"]);
  });

  it("groups each paired item, F1 moves only among the items wrong in both", () => {
    expect(itemsInGroup(paired, "fixed")).toEqual(["a"]);
    expect(itemsInGroup(paired, "broken")).toEqual(["b"]);
    expect(itemsInGroup(paired, "both-right")).toEqual(["c"]);
    expect(itemsInGroup(paired, "both-wrong")).toEqual(["d", "e"]);
    expect(itemsInGroup(paired, "f1-up")).toEqual(["d"]);
    expect(itemsInGroup(paired, "f1-down")).toEqual(["e"]);
    // A fixed item's F1 also rose, but it is "fixed", never "F1 up".
    expect(outcomeGroupsOf({ em: 0, f1: 0.2 }, { em: 1, f1: 1 })).toEqual(["fixed"]);
    expect(outcomeGroupsOf({ em: 0, f1: 0.5 }, { em: 0, f1: 0.5 })).toEqual(["both-wrong"]);
  });

  it("never pairs an item only one run scored, even with equal dataset positions", () => {
    const one = pairScores([score("p", 1, 1, 1)], [score("q", 1, 1, 1)]);
    expect(one.itemIds).toEqual([]);
    expect(one.onlyReference).toEqual(["p"]);
    expect(one.onlyOther).toEqual(["q"]);
    expect(pairScores([], [])).toMatchObject({ itemIds: [], onlyReference: [], onlyOther: [] });
  });

  it("steps previous / next within a group", () => {
    expect(neighboursInGroup(["a", "b", "c"], "b")).toEqual({ prev: "a", next: "c", position: 2 });
    expect(neighboursInGroup(["a", "b", "c"], "a")).toEqual({ prev: null, next: "b", position: 1 });
    expect(neighboursInGroup(["a", "b", "c"], "c")).toEqual({ prev: "b", next: null, position: 3 });
    expect(neighboursInGroup(["a"], "z")).toEqual({ prev: null, next: null, position: null });
  });
});
