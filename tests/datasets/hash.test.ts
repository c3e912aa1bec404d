import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { hashDatasetItems, parseDatasetText, type DatasetItem } from "@/lib/datasets";
import { canonicalJson } from "@/lib/datasets/hash";

const items: DatasetItem[] = [
  { id: "1", question: "Q1", context: "", answers: ["a"], metadata: { category: "x", round: 1 } },
  { id: "2", question: "Q2", context: "c", answers: ["b", "Zürich"], diagnosticTraceContext: "t" },
];

describe("hashDatasetItems", () => {
  it("is a sha256 hex digest that ignores key order", async () => {
    const reordered: DatasetItem[] = [
      { metadata: { round: 1, category: "x" }, answers: ["a"], context: "", question: "Q1", id: "1" },
      { diagnosticTraceContext: "t", answers: ["b", "Zürich"], context: "c", question: "Q2", id: "2" },
    ];
    expect(await hashDatasetItems(items)).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashDatasetItems(reordered)).toBe(await hashDatasetItems(items));
  });

  it("is the sha256 of the canonical JSON list of the items, whatever their shape", async () => {
    const shapes: DatasetItem[] = [
      ...items,
      { id: "3", question: 'Q "3"\n', context: "\u2028", answers: [] },
      { id: "4", question: "Q4", context: "c", answers: ["x"], metadata: { nested: { b: [1, null, "z"], a: true } }, diagnosticTraceContext: "" },
      { id: "5", question: "Q5", context: "c", answers: ["y"], extra: "an unusual key" } as DatasetItem,
    ];
    const expected = createHash("sha256").update(canonicalJson(shapes)).digest("hex");
    expect(await hashDatasetItems(shapes)).toBe(expected);
  });

  it("matches the canonical JSON whatever a long text holds that JSON escapes (or does not)", async () => {
    // The usual item is hashed in pieces, its long texts as they are unless JSON.stringify would escape something.
    const texts = ['a "quoted" word', "back\\slash", "line\nbreak", "tab\tand\u0000nul", "\u001f", "lone \ud800 surrogate", "low \udfff",
      "pair 😀 emoji", "\u007f del and \u2028 separator", "Zürich ünïcödé", "plain ".repeat(800)];
    const shapes: DatasetItem[] = texts.map((text, index) => ({
      id: `i${index}`, question: text, context: `${text} in a context`, answers: [text],
      ...(index % 2 === 0 ? { diagnosticTraceContext: `trace: ${text}` } : {}),
      ...(index % 3 === 0 ? { metadata: { note: text } } : {}),
    }));
    const expected = createHash("sha256").update(canonicalJson(shapes)).digest("hex");
    expect(await hashDatasetItems(shapes)).toBe(expected);
    for (const item of shapes) {
      expect(await hashDatasetItems([item])).toBe(createHash("sha256").update(canonicalJson([item])).digest("hex"));
    }
  });

  it("changes with content and with item order", async () => {
    const base = await hashDatasetItems(items);
    expect(await hashDatasetItems([...items].reverse())).not.toBe(base);
    expect(await hashDatasetItems([{ ...items[0]!, answers: ["A"] }, items[1]!])).not.toBe(base);
    expect(await hashDatasetItems([items[0]!])).not.toBe(base);
  });

  it("recognises the same dataset imported from different formats", async () => {
    const fromJsonl = parseDatasetText('{"id": 1, "question": "Q", "answers": ["a", "b"], "category": "geo"}\n', { fileName: "d.jsonl" });
    const fromCsv = parseDatasetText("category,answers,question,id\ngeo,a|b,Q,1\n", { fileName: "d.csv" });
    expect(await hashDatasetItems(fromCsv)).toBe(await hashDatasetItems(fromJsonl));
  });

  it("hashes the canonical JSON of the item list", async () => {
    const { createHash } = await import("node:crypto");
    const single: DatasetItem[] = [{ id: "1", question: "Q", context: "", answers: ["a"] }];
    const canonical = '[{"answers":["a"],"context":"","id":"1","question":"Q"}]';
    expect(await hashDatasetItems(single)).toBe(createHash("sha256").update(canonical).digest("hex"));
  });
});
