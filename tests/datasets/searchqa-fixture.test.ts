import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseDatasetFile } from "@/lib/datasets";

const fixture = fileURLToPath(new URL("../fixtures/datasets/searchqa-mini.jsonl", import.meta.url));

describe("searchqa-mini.jsonl shared fixture", () => {
  it("holds 12 valid SearchQA-style items with the promised special cases", async () => {
    const items = await parseDatasetFile(fixture);
    expect(items.map((item) => item.id)).toEqual(Array.from({ length: 12 }, (_, index) => `sq-${String(index + 1).padStart(3, "0")}`));
    expect(items.filter((item) => item.context === "")).toHaveLength(1);
    expect(items.filter((item) => item.answers.length === 2)).toHaveLength(1);
    expect(items.some((item) => item.answers.some((answer) => /[^\x00-\x7f]/.test(answer)))).toBe(true);
    expect(items.some((item) => item.answers.includes("Zürich"))).toBe(true);
  });

  it("gives every non-empty context 3–4 passages, one of which contains an answer", async () => {
    for (const item of await parseDatasetFile(fixture)) {
      if (item.context === "") continue;
      const passages = item.context.split("[DOC]").slice(1);
      expect(passages.length, item.id).toBeGreaterThanOrEqual(3);
      expect(passages.length, item.id).toBeLessThanOrEqual(4);
      for (const passage of passages) expect(passage, item.id).toMatch(/^ \[TLE\] .+ \[PAR\] .+/);
      const lowerContext = item.context.toLowerCase();
      expect(item.answers.some((answer) => lowerContext.includes(answer.toLowerCase())), item.id).toBe(true);
    }
  });
});
