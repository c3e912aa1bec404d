import { describe, expect, it } from "vitest";
import { parseDatasetText } from "@/lib/datasets";
import { datasetFailure } from "../support/failures";

const failure = (text: string, fileName = "data.jsonl") => datasetFailure(text, fileName);

const line = (record: Record<string, unknown>): string => JSON.stringify(record);

describe("JSONL datasets", () => {
  it("reads one object per line, skipping blank lines, with CRLF line endings and a BOM", () => {
    const text =
      "\uFEFF" +
      [
        line({ key: "sq-1", question: "Q1", context: "[DOC] [TLE] T [PAR] p", answers: ["a"] }),
        "",
        "   ",
        line({ id: 2, question: "Q2", answer: "b", diagnostic_trace_context: "trace" }),
        "",
      ].join("\r\n");
    expect(parseDatasetText(text, { fileName: "data.jsonl" })).toEqual([
      { id: "sq-1", question: "Q1", context: "[DOC] [TLE] T [PAR] p", answers: ["a"] },
      { id: "2", question: "Q2", context: "", answers: ["b"], diagnosticTraceContext: "trace" },
    ]);
  });

  it("accepts a last line without a newline and the .ndjson extension", () => {
    const text = `${line({ id: "a", question: "Q", answers: ["x"] })}\n${line({ id: "b", question: "Q", answers: ["y"] })}`;
    expect(parseDatasetText(text, { fileName: "data.ndjson" }).map((item) => item.id)).toEqual(["a", "b"]);
  });

  it("reports field problems with the line number", () => {
    const text = [
      line({ id: "a", question: "Q", answers: ["x"] }),
      "",
      line({ id: "b", answers: ["x"] }),
      line({ id: "c", question: "Q", answers: ["x", 2] }),
      line({ id: "d", question: "Q", answers: [] }),
    ].join("\n");
    const error = failure(text);
    expect(error.issues).toEqual([
      { line: 3, field: "question", message: "missing" },
      { line: 4, field: "answers", message: "must be a non-empty list of strings (answer 2 is a number)" },
      { line: 5, field: "answers", message: "must be a non-empty list of strings (got an empty list)" },
    ]);
    expect(error.message.split("\n")).toEqual([
      'data.jsonl: line 3: field "question": missing',
      'data.jsonl: line 4: field "answers": must be a non-empty list of strings (answer 2 is a number)',
      'data.jsonl: line 5: field "answers": must be a non-empty list of strings (got an empty list)',
    ]);
  });

  it("reports invalid JSON by line (and column) and keeps checking the other lines", () => {
    const text = [
      line({ id: "a", question: "Q", answers: ["x"] }),
      '{"id": "b", "question": "Q", "answers": ["x"]',
      "not json",
      line({ id: "d", answers: ["x"] }),
    ].join("\n");
    expect(failure(text).issues).toEqual([
      { line: 2, message: `invalid JSON at column 46: expected "," or "}" after a property value, found the end of the text` },
      { line: 3, message: "invalid JSON at column 1: expected a value, found 'n'" },
      { line: 4, field: "question", message: "missing" },
    ]);
  });

  it("rejects lines that are JSON but not objects", () => {
    expect(failure('["q", "a"]\n').message).toBe('data.jsonl: line 1: must be an object with "id", "question" and "answers" fields (got a list)');
  });

  it("treats an empty file or only blank lines as an error", () => {
    expect(failure("").message).toBe("data.jsonl: file is empty");
    expect(failure("\n  \n\r\n").message).toBe("data.jsonl: file is empty");
  });

  it("lists duplicated ids with their lines, the first five only", () => {
    const ids = ["a", "b", "a", "c", "d", "e", "f", "g", "b", "c", "d", "e", "f", "g", "a"];
    const text = ids.map((id) => line({ id, question: "Q", answers: ["x"] })).join("\n");
    expect(failure(text).issues).toEqual([
      {
        field: "id",
        message:
          'duplicate ids: "a" on lines 1, 3, 15; "b" on lines 2, 9; "c" on lines 4, 10; "d" on lines 5, 11; "e" on lines 6, 12 (and 2 more duplicated ids)',
      },
    ]);
  });

  it("reports duplicates together with other problems", () => {
    const text = [line({ id: "a", question: "Q", answers: ["x"] }), line({ id: "a", answers: ["x"] })].join("\n");
    expect(failure(text).message.split("\n")).toEqual([
      'data.jsonl: line 2: field "question": missing',
      'data.jsonl: field "id": duplicate ids: "a" on lines 1, 2',
    ]);
  });
});
