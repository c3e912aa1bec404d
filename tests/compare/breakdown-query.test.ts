import { describe, expect, it } from "vitest";
import { breakdownByMetadata, compareHref, pairScores, parseCompareQuery, parseRunIds, type ItemScore } from "@/lib/compare";

const score = (id: number, em: number): ItemScore => ({ itemId: `q${id}`, datasetItemId: id, em, f1: em, subEm: em, status: "x", latencyMs: 0, tokens: 0 });

describe("metadata breakdown", () => {
  it("computes EM per value, largest difference first, and skips id-like fields", () => {
    const reference = [score(1, 0), score(2, 0), score(3, 1), score(4, 1), score(5, 0)];
    const other = [score(1, 1), score(2, 1), score(3, 1), score(4, 0), score(5, 0)];
    const metadata = new Map<number, Record<string, unknown>>([
      [1, { category: "history", uid: "a", nested: { x: 1 } }], [2, { category: "history", uid: "b" }],
      [3, { category: "science", uid: "c" }], [4, { category: "science", uid: "d" }], [5, { uid: "e" }],
    ]);
    const fields = breakdownByMetadata(pairScores(reference, other), metadata);
    const category = fields.find((field) => field.field === "category")!;
    expect(category.rows.map((row) => [row.value, row.n, row.referenceEm, row.otherEm, row.emDifference])).toEqual([
      ["history", 2, 0, 1, 1], ["science", 2, 1, 0.5, -0.5], ["(none)", 1, 0, 0, 0],
    ]);
    // uid has as many values as items (5 ≤ 40, so it is kept); nested objects are skipped.
    expect(fields.map((field) => field.field)).not.toContain("nested");
  });
});

describe("compare URL", () => {
  it("parses run lists in either form, keeping order and dropping junk and duplicates", () => {
    expect(parseRunIds("12,15,19")).toEqual([12, 15, 19]);
    expect(parseRunIds(["3", "1", "3", "x", "0"])).toEqual([3, 1]);
    const query = parseCompareQuery({ runs: "4,7", group: "fixed", item: "q 1", diff: "split", vs: "9" });
    expect(query).toEqual({ runIds: [4, 7], vs: undefined, group: "fixed", item: "q 1", diff: "split", page: 1 });
    expect(parseCompareQuery({ runs: "4", group: "nope" }).group).toBeUndefined();
  });

  it("builds the canonical URL back", () => {
    expect(compareHref({ runIds: [4, 7], group: "fixed", item: "a/b c", diff: "split" })).toBe("/compare?runs=4,7&group=fixed&item=a%2Fb+c&diff=split");
    expect(compareHref({ runIds: [4, 7, 9], vs: 7 })).toBe("/compare?runs=4,7,9");
    expect(compareHref({ runIds: [4, 7, 9], vs: 9 })).toBe("/compare?runs=4,7,9&vs=9");
  });
});
