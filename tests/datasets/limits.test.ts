// Valid-looking files that would ruin the server (a million columns, a 100 MB question, JSON nested thousands of
// levels deep) are refused with the line and field, in time linear in their size.
import { describe, expect, it } from "vitest";
import {
  DatasetValidationError, hashDatasetItems, MAX_FIELD_CHARS, MAX_METADATA_FIELDS, MAX_NESTING_DEPTH, MAX_RECORD_CHARS, parseDatasetStream,
  type DatasetItem,
} from "@/lib/datasets";
import { datasetFailure, rejectionOf } from "../support/failures";

const line = (record: object) => `${JSON.stringify(record)}\n`;
const base = { id: "q1", question: "Q?", answers: ["a"] };

function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let level = 0; level < depth; level += 1) value = { deeper: value };
  return value;
}

/** `total` characters of text delivered as 64 KB chunks, never held whole by the test. */
async function* generated(head: string, fill: string, total: number, tail: string): AsyncGenerator<string> {
  yield head;
  const chunk = fill.repeat(Math.ceil(65536 / fill.length));
  for (let sent = 0; sent < total; sent += chunk.length) yield chunk;
  yield tail;
}

describe("metadata fields", () => {
  it(`accepts ${MAX_METADATA_FIELDS} metadata fields and refuses more, naming the line and the first field over the limit`, () => {
    const fields = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`m${i + 1}`, i]));
    const ok = line({ ...base, ...fields(MAX_METADATA_FIELDS) });
    expect(() => datasetFailure(ok, "d.jsonl")).toThrow("expected a DatasetValidationError");
    const error = datasetFailure(ok + line({ ...base, id: "q2", ...fields(MAX_METADATA_FIELDS + 3) }), "d.jsonl");
    expect(error.issues).toEqual([
      { line: 2, field: `m${MAX_METADATA_FIELDS + 1}`, message: `is metadata field 65 of 67; an item can carry at most ${MAX_METADATA_FIELDS} metadata fields` },
    ]);
  });

  it("refuses a CSV header with a million columns at once, on line 1", () => {
    const columns = ["id", "question", "answers", ...Array.from({ length: 1_000_000 }, (_, i) => `c${i}`)];
    const started = performance.now();
    const error = datasetFailure(`${columns.join(",")}\n${columns.map(() => "x").join(",")}\n`, "wide.csv");
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(error.issues).toEqual([
      {
        line: 1,
        field: `c${MAX_METADATA_FIELDS}`,
        message: `the header has 1,000,003 columns, 1,000,000 of them metadata; an item can carry at most ${MAX_METADATA_FIELDS} metadata fields`,
      },
    ]);
  });
});

describe("field size", () => {
  it(`accepts a field of ${MAX_FIELD_CHARS} characters and refuses a longer one, in every format`, () => {
    const big = "x".repeat(MAX_FIELD_CHARS + 1);
    expect(datasetFailure(line({ ...base, question: big }), "d.jsonl").issues).toEqual([
      { line: 1, field: "question", message: `is 1,000,001 characters long; a field can be at most 1,000,000` },
    ]);
    expect(datasetFailure(`[${JSON.stringify({ ...base, context: big })}]`, "d.json").issues).toEqual([
      { item: 1, line: 1, field: "context", message: `is 1,000,001 characters long; a field can be at most 1,000,000` },
    ]);
    expect(datasetFailure(`id,question,answers,note\nq1,Q,a,${big}\n`, "d.csv").issues).toEqual([
      { line: 2, field: "note", message: `is 1,000,001 characters long; a field can be at most 1,000,000` },
    ]);
    expect(datasetFailure(line({ ...base, answers: ["a", big] }), "d.jsonl").issues[0]).toMatchObject({ field: "answers" });
    expect(datasetFailure(line({ ...base, extra: { inner: [big] } }), "d.jsonl").issues[0]).toMatchObject({ field: "extra" });
    expect(() => datasetFailure(line({ ...base, question: "x".repeat(MAX_FIELD_CHARS) }), "d.jsonl")).toThrow("expected a DatasetValidationError");
  });

  it("refuses an id longer than 256 characters", () => {
    expect(datasetFailure(line({ ...base, id: "i".repeat(257) }), "d.jsonl").issues).toEqual([
      { line: 1, field: "id", message: "is 257 characters long; an id can be at most 256" },
    ]);
  });

  it("refuses a 60 MB single-line question quickly, naming the line and the field, without holding the line", async () => {
    const started = performance.now();
    const source = generated('{"id":"q1","answers":["a"],"question":"', "abcdefgh", 60_000_000, '"}\n' + line({ ...base, id: "q2", question: 7 }));
    const error = (await rejectionOf(parseDatasetStream(source, { fileName: "huge.jsonl" }))) as DatasetValidationError;
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(error.issues).toEqual([
      { line: 1, field: "question", message: `is longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters; a field can be at most 1,000,000` },
      { line: 2, field: "question", message: "must be a non-empty string (got a number)" },
    ]);
  });

  it("refuses a 60 MB single CSV row (an unclosed quote swallowing the file) quickly, naming its line", async () => {
    const started = performance.now();
    const source = generated('id,question,answers\nq1,Q,a\nq2,"never closed,', "abcdefg\n", 60_000_000, "");
    const error = (await rejectionOf(parseDatasetStream(source, { fileName: "quote.csv" }))) as DatasetValidationError;
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(error.issues).toEqual([
      {
        line: 3,
        message: `the row is longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters (is a quoted field never closed?); a row can be at most that long`,
      },
    ]);
  });

  it("refuses a JSON list element longer than the record limit, naming the item, its line and the field", () => {
    const text = `[\n${JSON.stringify(base)},\n${JSON.stringify({ ...base, id: "q2", context: "c".repeat(MAX_RECORD_CHARS) })}\n]`;
    expect(datasetFailure(text, "d.json").issues).toEqual([
      { item: 2, line: 3, field: "context", message: `is longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters; a field can be at most 1,000,000` },
    ]);
  });
});

describe("nesting depth", () => {
  it(`accepts metadata nested ${MAX_NESTING_DEPTH} levels and refuses deeper, with a clear issue instead of a stack overflow`, () => {
    expect(() => datasetFailure(line({ ...base, tree: nested(MAX_NESTING_DEPTH) }), "d.jsonl")).toThrow("expected a DatasetValidationError");
    for (const depth of [MAX_NESTING_DEPTH + 1, 3000, 200_000]) {
      const text = `{"id":"q1","question":"Q","answers":["a"],"tree":${"[".repeat(depth)}${"]".repeat(depth)}}\n`;
      expect(datasetFailure(text, "d.jsonl").issues, `depth ${depth}`).toEqual([
        { line: 1, field: "tree", message: `is nested more than ${MAX_NESTING_DEPTH} levels deep; a field can nest at most ${MAX_NESTING_DEPTH} levels` },
      ]);
    }
  });

  it("refuses a JSON document nested thousands of levels deep with its line, not a stack overflow", () => {
    const deep = `{"id":"q1","question":"Q","answers":["a"],"tree":${"[".repeat(3000)}${"]".repeat(3000)}}`;
    expect(datasetFailure(`[\n${deep}\n]`, "d.json").issues).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringMatching(/nested more than/) }),
    ]);
  });

  it("hashes items whatever their metadata holds, without recursion limits", async () => {
    const item: DatasetItem = { id: "q", question: "Q", context: "", answers: ["a"], metadata: { tree: nested(MAX_NESTING_DEPTH) } };
    expect(await hashDatasetItems([item])).toMatch(/^[0-9a-f]{64}$/);
  });
});
