import { describe, expect, it } from "vitest";
import { diffSkillTexts, toSplitRows, wordChanges } from "@/lib/compare";

describe("skill diff", () => {
  const before = "# Skill\nAnswer briefly.\nUse the context.\nOld rule.\n";
  const after = "# Skill\nAnswer very briefly.\nUse the context.\nNew rule one.\nNew rule two.\n";
  const diff = diffSkillTexts(before, after);

  it("counts added and removed lines and numbers each side", () => {
    expect(diff.added).toBe(3);
    expect(diff.removed).toBe(2);
    expect(diff.lines.map((line) => [line.kind, line.oldNumber, line.newNumber])).toEqual([
      ["same", 1, 1], ["removed", 2, null], ["added", null, 2], ["same", 3, 3], ["removed", 4, null], ["added", null, 4], ["added", null, 5],
    ]);
  });

  it("marks only the changed words inside a changed line", () => {
    const added = diff.lines[2]!;
    expect(added.segments.filter((segment) => segment.changed).map((segment) => segment.text.trim())).toEqual(["very"]);
    expect(added.segments.map((segment) => segment.text).join("")).toBe("Answer very briefly.");
    expect(diff.lines[1]!.segments.every((segment) => !segment.changed || segment.text.trim() === "")).toBe(true);
  });

  it("lays the lines out side by side, pairing removed with added", () => {
    const rows = toSplitRows(diff.lines);
    expect(rows.map((row) => [row.left?.oldNumber ?? null, row.right?.newNumber ?? null])).toEqual([[1, 1], [2, 2], [3, 3], [4, 4], [null, 5]]);
  });

  it("an identical text has no changes; an empty one is all added", () => {
    expect(diffSkillTexts(before, before)).toMatchObject({ added: 0, removed: 0 });
    expect(diffSkillTexts("", "a\nb\n")).toMatchObject({ added: 2, removed: 0 });
  });

  it("marks the words a response has that the reference's does not", () => {
    expect(wordChanges("the answer is Paris", "the answer is Lyon").filter((s) => s.changed).map((s) => s.text)).toEqual(["Lyon"]);
  });
});
