import { describe, expect, it } from "vitest";
import { selectItems } from "@/lib/rollout/select-items";

const items = ["a", "b", "c", "d", "e"].map((id) => ({ id }));

describe("selectItems", () => {
  it("takes the listed ids in dataset order, whatever order they are listed in", () => {
    expect(selectItems(items, { itemIds: ["d", "a", "c"] }).map((item) => item.id)).toEqual(["a", "c", "d"]);
  });

  it("refuses ids the dataset does not have, naming them", () => {
    expect(() => selectItems(items, { itemIds: ["a", "zz"] })).toThrow(/no item with id "zz"/);
  });

  it("keeps the first N and the seeded sample as before", () => {
    expect(selectItems(items, { limit: 2 }).map((item) => item.id)).toEqual(["a", "b"]);
    const sample = selectItems(items, { sample: { size: 3, seed: 7 } });
    expect(sample).toHaveLength(3);
    expect(selectItems(items, { sample: { size: 3, seed: 7 } })).toEqual(sample);
  });
});
