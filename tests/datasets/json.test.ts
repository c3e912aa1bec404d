import { describe, expect, it } from "vitest";
import { parseDatasetText } from "@/lib/datasets";
import { datasetFailure } from "../support/failures";

const failure = (text: string, fileName = "data.json") => datasetFailure(text, fileName);

describe("JSON datasets", () => {
  it("reads a JSON array with numeric ids, `key` ids and a single `answer`", () => {
    const text = JSON.stringify([
      { id: 1, question: "Q1", context: "C1", answers: ["a", "b"] },
      { key: "sq-2", question: "Q2", answer: "c", category: "science" },
    ]);
    expect(parseDatasetText(text, { fileName: "data.json" })).toEqual([
      { id: "1", question: "Q1", context: "C1", answers: ["a", "b"] },
      { id: "sq-2", question: "Q2", context: "", answers: ["c"], metadata: { category: "science" } },
    ]);
  });

  it("reads an object with a `data` list and ignores its other top-level fields", () => {
    const text = JSON.stringify({ version: "1.0", data: [{ id: "x", question: "Q", answers: ["a"] }] }, null, 2);
    expect(parseDatasetText(text, { fileName: "data.json" })).toEqual([{ id: "x", question: "Q", context: "", answers: ["a"] }]);
  });

  it("reports field problems by item number and the line the item starts on", () => {
    const text = [
      "[",
      '  {"id": "a", "question": "Q", "answers": ["x"]},',
      "  {",
      '    "id": "b",',
      '    "answers": ["x"]',
      "  },",
      '  {"id": "c", "question": "Q", "answers": []}',
      "]",
    ].join("\n");
    const error = failure(text);
    expect(error.file).toBe("data.json");
    expect(error.issues).toEqual([
      { item: 2, line: 3, field: "question", message: "missing" },
      { item: 3, line: 7, field: "answers", message: "must be a non-empty list of strings (got an empty list)" },
    ]);
    expect(error.message).toBe(
      [
        'data.json: item 2 (line 3): field "question": missing',
        'data.json: item 3 (line 7): field "answers": must be a non-empty list of strings (got an empty list)',
      ].join("\n"),
    );
  });

  it("finds item lines inside a `data` list too", () => {
    const text = '{\n  "data": [\n    {"id": "a", "question": "Q", "answers": ["x"]},\n    {"id": "b", "question": "Q", "answers": [7]}\n  ]\n}';
    expect(failure(text).issues).toEqual([
      { item: 2, line: 4, field: "answers", message: "must be a non-empty list of strings (answer 1 is a number)" },
    ]);
  });

  it("reports the line and column of a syntax error", () => {
    const text = '[\n  {"id": "a", "question": "Q", "answers": ["x"]},\n  {"id": "b" "question": "Q"}\n]';
    const error = failure(text);
    expect(error.issues).toEqual([{ line: 3, message: `invalid JSON at column 14: expected "," or "}" after a property value, found '"'` }]);
    expect(error.message).toBe(`data.json: line 3: invalid JSON at column 14: expected "," or "}" after a property value, found '"'`);
  });

  it("names a trailing comma and an unterminated string", () => {
    expect(failure('[\n  {"id": "a", "question": "Q", "answers": ["x"]},\n]').issues).toEqual([
      { line: 2, message: 'invalid JSON at column 49: trailing comma before "]"' },
    ]);
    expect(failure('[{"id": "a", "question": "Q\n').issues).toEqual([{ line: 1, message: "invalid JSON at column 28: line break inside a string" }]);
  });

  it("hints at JSON Lines when a .json file holds one object per line", () => {
    const text = '{"id": "a", "question": "Q", "answers": ["x"]}\n{"id": "b", "question": "Q", "answers": ["x"]}\n';
    expect(failure(text).message).toBe(
      `data.json: line 2: invalid JSON at column 1: unexpected '{' after the end of the JSON value (this looks like JSON Lines, one object per line: use the ".jsonl" extension)`,
    );
  });

  it("rejects documents that hold no list of items", () => {
    expect(failure('{"id": "a", "question": "Q", "answers": ["x"]}').issues).toEqual([
      { message: 'expected a list of items or an object with a "data" list (got an object)' },
    ]);
    expect(failure('{"data": {"id": "a"}}').issues).toEqual([{ message: 'field "data": must be a list of items (got an object)' }]);
  });

  it("treats an empty file and an empty list as errors", () => {
    expect(failure("  \n").message).toBe("data.json: file is empty");
    expect(failure("[]").message).toBe("data.json: no items (the list is empty)");
    expect(failure('{"data": []}').message).toBe("data.json: no items (the list is empty)");
  });

  it("lists duplicated ids with the items and lines where they appear", () => {
    const text = [
      "[",
      '{"id": "a", "question": "Q", "answers": ["x"]},',
      '{"id": 1, "question": "Q", "answers": ["x"]},',
      '{"id": "a", "question": "Q", "answers": ["x"]},',
      '{"id": "1", "question": "Q", "answers": ["x"]}',
      "]",
    ].join("\n");
    expect(failure(text).issues).toEqual([
      { field: "id", message: 'duplicate ids: "a" at items 1, 3 (lines 2, 4); "1" at items 2, 4 (lines 3, 5)' },
    ]);
  });
});
