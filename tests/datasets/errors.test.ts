import { describe, expect, it } from "vitest";
import { DatasetValidationError, MAX_REPORTED_ISSUES, parseDatasetText } from "@/lib/datasets";
import { datasetFailure } from "../support/failures";

const failure = datasetFailure;

describe("DatasetValidationError", () => {
  it("is an Error carrying the file and the issues, one message line per issue", () => {
    const error = failure('{"id": "a"}\n', "data.jsonl");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("DatasetValidationError");
    expect(error.file).toBe("data.jsonl");
    expect(error.issues).toHaveLength(2);
    expect(error.message.split("\n")).toEqual([
      'data.jsonl: line 1: field "question": missing',
      'data.jsonl: line 1: field "answers": missing (expected an "answers" list or an "answer" string)',
    ]);
  });

  it("collects every issue up to the cap, then counts the rest", () => {
    const lines = Array.from({ length: 120 }, (_, index) => JSON.stringify({ id: `q${index}`, answers: ["x"] }));
    const error = failure(lines.join("\n"), "data.jsonl");
    expect(error.issues).toHaveLength(MAX_REPORTED_ISSUES);
    expect(error.issues[49]).toEqual({ line: 50, field: "question", message: "missing" });
    expect(error.omittedIssueCount).toBe(70);
    const messageLines = error.message.split("\n");
    expect(messageLines).toHaveLength(MAX_REPORTED_ISSUES + 1);
    expect(messageLines.at(-1)).toBe("data.jsonl: ... and 70 more issues");
  });

  it("returns nothing when only one record of many is wrong", () => {
    const good = JSON.stringify({ id: "a", question: "Q", answers: ["x"] });
    const text = [good, JSON.stringify({ id: "b", question: "Q", answers: "x" }), good.replace('"a"', '"c"')].join("\n");
    expect(() => parseDatasetText(text, { fileName: "data.jsonl" })).toThrow(DatasetValidationError);
  });
});
