import { describe, expect, it } from "vitest";
import { parseDatasetText } from "@/lib/datasets";
import { datasetFailure } from "../support/failures";

const failure = (text: string, fileName = "qa.csv") => datasetFailure(text, fileName);

const parseCsv = (text: string) => parseDatasetText(text, { fileName: "qa.csv" });

describe("CSV datasets", () => {
  it("reads `|`-separated answers and JSON-list answers, other columns as metadata", () => {
    const text = [
      "id,question,context,answers,category",
      "1,Capital of France?,,Paris|Paris France,geo",
      '2,Who wrote Hamlet?,[DOC] [TLE] Hamlet [PAR] a play,"[""Shakespeare"",""William Shakespeare""]",lit',
      "3,Largest planet?,, Jupiter ,",
    ].join("\n");
    expect(parseCsv(text)).toEqual([
      { id: "1", question: "Capital of France?", context: "", answers: ["Paris", "Paris France"], metadata: { category: "geo" } },
      {
        id: "2",
        question: "Who wrote Hamlet?",
        context: "[DOC] [TLE] Hamlet [PAR] a play",
        answers: ["Shakespeare", "William Shakespeare"],
        metadata: { category: "lit" },
      },
      { id: "3", question: "Largest planet?", context: "", answers: ["Jupiter"] },
    ]);
  });

  it("accepts `key` for the id and a single `answer` column (kept whole, `|` included)", () => {
    const text = "key,question,answer,diagnostic_trace_context\nsq-1,Band?,AC|DC,trace text\n";
    expect(parseCsv(text)).toEqual([{ id: "sq-1", question: "Band?", context: "", answers: ["AC|DC"], diagnosticTraceContext: "trace text" }]);
  });

  it("handles quoted fields with commas, quotes and line breaks", () => {
    const text = 'id,question,answers\nq1,"Who said ""Eureka"", and where?\nHint: a bath",Archimedes\nq2,"a, b",x\n';
    expect(parseCsv(text)).toEqual([
      { id: "q1", question: 'Who said "Eureka", and where?\nHint: a bath', context: "", answers: ["Archimedes"] },
      { id: "q2", question: "a, b", context: "", answers: ["x"] },
    ]);
  });

  it("strips a BOM and handles CRLF line endings (keeping CRLF inside quoted fields)", () => {
    const text = '\uFEFFid,question,answers\r\n1,"line one\r\nline two",Zürich\r\n2,Q,"[""a""]"\r\n';
    expect(parseCsv(text)).toEqual([
      { id: "1", question: "line one\r\nline two", context: "", answers: ["Zürich"] },
      { id: "2", question: "Q", context: "", answers: ["a"] },
    ]);
  });

  it("reads files that only use \\r as the line break", () => {
    expect(parseCsv("id,question,answers\r1,Q,a\r2,Q,b").map((item) => item.answers)).toEqual([["a"], ["b"]]);
  });

  it("skips blank lines and tolerates a stray trailing comma", () => {
    expect(parseCsv("\nid,question,answers\n\n1,Q,a,\n\n").map((item) => item.id)).toEqual(["1"]);
  });

  it("reports the line where the record starts, counting the header as line 1 and lines inside quoted fields", () => {
    const text = [
      "id,question,answers", // line 1
      'q1,"a question over', // line 2
      'three lines",a', // line 3
      "q2,,b", // line 4: empty question cell
      'q3,"another\nsplit one",', // lines 5-6: empty answers
      'q4,Q,"[1, 2]"', // line 7
    ].join("\n");
    const error = failure(text);
    expect(error.issues).toEqual([
      { line: 4, field: "question", message: "missing" },
      { line: 5, field: "answers", message: 'missing (expected an "answers" list or an "answer" string)' },
      { line: 7, field: "answers", message: "must be a non-empty list of strings (answer 1 is a number)" },
    ]);
    expect(error.message.split("\n")[0]).toBe('qa.csv: line 4: field "question": missing');
  });

  it("reports a `|` list with no answers and a broken JSON list", () => {
    expect(failure('id,question,answers\n1,Q,|\n2,Q,"[""a"", ]"\n').issues).toEqual([
      { line: 2, field: "answers", message: "must be a non-empty list of strings (got an empty list)" },
      {
        line: 3,
        field: "answers",
        message: 'looks like a JSON list but is not valid JSON (write it like ["a","b"], or separate answers with "|")',
      },
    ]);
  });

  it("reports missing columns once, on the header line", () => {
    const error = failure("id,context,answer\n1,c,a\n2,c,b\n");
    expect(error.issues).toEqual([{ line: 1, field: "question", message: "missing column (the header has: id, context, answer)" }]);
    expect(error.message).toBe('qa.csv: line 1: field "question": missing column (the header has: id, context, answer)');
    expect(failure("question,answers\nQ,a\n").issues).toEqual([
      { line: 1, field: "id", message: 'missing column (expected "id" or "key"; the header has: question, answers)' },
    ]);
  });

  it("reports header problems: duplicate or empty names, another separator", () => {
    expect(failure("id,question,answers,id,\n").issues).toEqual([
      { line: 1, message: 'column "id" appears more than once in the header' },
      { line: 1, message: "column 5 of the header has no name" },
    ]);
    expect(failure("id;question;answers\n1;Q;a\n").issues).toEqual([
      { line: 1, message: 'fields must be separated by "," but this header seems to use ";"' },
    ]);
  });

  it("reports rows whose field count does not match the header", () => {
    expect(failure("id,question,answers\n1,Q\n2,Q,a,extra\n3,Q,a\n").issues).toEqual([
      { line: 2, message: "has 2 fields but the header has 3 (check the quoting of this row)" },
      { line: 3, message: "has 4 fields but the header has 3 (check the quoting of this row)" },
    ]);
  });

  it("reports an unterminated quoted field at the line where it opens", () => {
    expect(failure('id,question,answers\n1,Q,a\n2,"never closed,a\n3,Q,a\n').issues).toEqual([
      { line: 3, message: "malformed CSV: a quoted field is never closed" },
    ]);
  });

  it("reports a stray quote after a quoted field", () => {
    expect(failure('id,question,answers\n1,"Q"x,a\n2,Q,"a"\n').issues).toEqual([
      { line: 2, message: 'malformed CSV: a closing quote is followed by other text (inside a quoted field write a quote as "")' },
    ]);
  });

  it("treats an empty file and a header without rows as errors", () => {
    expect(failure("").message).toBe("qa.csv: file is empty");
    expect(failure("\r\n\r\n").message).toBe("qa.csv: file is empty");
    expect(failure("id,question,answers\n").message).toBe("qa.csv: no items (the file has only a header row)");
  });

  it("lists duplicated ids with their lines", () => {
    const text = 'id,question,answers\n7,Q,a\n8,"two\nlines",a\n7,Q,a\n8,Q,a\n';
    expect(failure(text).message).toBe('qa.csv: field "id": duplicate ids: "7" on lines 2, 5; "8" on lines 3, 6');
  });
});
