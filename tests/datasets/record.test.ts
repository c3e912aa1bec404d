import { describe, expect, it } from "vitest";
import { validateRecord } from "@/lib/datasets/record";

const at = { line: 3 };

describe("validateRecord (shared by every format)", () => {
  it("maps the documented fields and keeps the rest as metadata", () => {
    const check = validateRecord(
      { id: "q1", question: "Q?", context: "ctx", answers: ["a", "b"], diagnostic_trace_context: "trace", category: "history", round: 2 },
      at,
    );
    expect(check.issues).toEqual([]);
    expect(check.item).toEqual({
      id: "q1",
      question: "Q?",
      context: "ctx",
      answers: ["a", "b"],
      diagnosticTraceContext: "trace",
      metadata: { category: "history", round: 2 },
    });
  });

  it("takes the id from `key` (SearchQA), turns numeric ids into strings, and defaults context to empty", () => {
    expect(validateRecord({ key: "sq-1", question: "Q", answers: ["a"] }, at).item).toEqual({ id: "sq-1", question: "Q", context: "", answers: ["a"] });
    expect(validateRecord({ id: 17, question: "Q", answers: ["a"] }, at).item?.id).toBe("17");
    expect(validateRecord({ id: "x", key: "k", question: "Q", answers: ["a"] }, at).item).toMatchObject({ id: "x", metadata: { key: "k" } });
  });

  it("accepts a single `answer` string instead of `answers`", () => {
    expect(validateRecord({ id: "q", question: "Q", answer: "Paris" }, at).item?.answers).toEqual(["Paris"]);
  });

  it("omits metadata when there is nothing else, and allows an empty or null context", () => {
    const item = validateRecord({ id: "q", question: "Q", context: "", answers: ["a"] }, at).item;
    expect(item).toEqual({ id: "q", question: "Q", context: "", answers: ["a"] });
    expect(item && "metadata" in item).toBe(false);
    expect(validateRecord({ id: "q", question: "Q", context: null, answers: ["a"] }, at).item?.context).toBe("");
  });

  it("round-trips Skillboard's own item shape (camelCase trace, nested metadata)", () => {
    const item = { id: "q", question: "Q", context: "c", answers: ["a"], diagnosticTraceContext: "t", metadata: { category: "x" } };
    expect(validateRecord(item, at).item).toEqual(item);
  });

  it("keeps a __proto__ field as plain metadata", () => {
    const record = JSON.parse('{"id":"q","question":"Q","answers":["a"],"__proto__":{"polluted":true}}') as unknown;
    const item = validateRecord(record, at).item;
    expect(Object.getPrototypeOf(item?.metadata)).toBe(Object.prototype);
    expect(Object.keys(item?.metadata ?? {})).toEqual(["__proto__"]);
  });

  it("reports every problem of a record with its location and field", () => {
    const check = validateRecord({ question: 5, answers: "a", context: 1, diagnostic_trace_context: [] }, { item: 4 });
    expect(check.item).toBeUndefined();
    expect(check.issues).toEqual([
      { item: 4, field: "id", message: 'missing (expected "id" or "key")' },
      { item: 4, field: "question", message: "must be a non-empty string (got a number)" },
      { item: 4, field: "answers", message: "must be a non-empty list of strings (got a string)" },
      { item: 4, field: "context", message: "must be a string (got a number)" },
      { item: 4, field: "diagnostic_trace_context", message: "must be a string (got an empty list)" },
    ]);
  });

  it("rejects empty answer lists, non-string answers and blank answers", () => {
    const issueOf = (answers: unknown) => validateRecord({ id: "q", question: "Q", answers }, at).issues[0]?.message;
    expect(issueOf([])).toBe("must be a non-empty list of strings (got an empty list)");
    expect(issueOf(["a", 3])).toBe("must be a non-empty list of strings (answer 2 is a number)");
    expect(issueOf([" "])).toBe("must be a non-empty list of strings (answer 1 is a blank string)");
    expect(validateRecord({ id: "q", question: "Q", answer: "" }, at).issues).toEqual([
      { line: 3, field: "answer", message: "must be a non-empty string (got an empty string)" },
    ]);
  });

  it("reports the id of an invalid record so duplicates can still be found", () => {
    const check = validateRecord({ id: "q9", answers: ["a"] }, at);
    expect(check.id).toBe("q9");
    expect(check.item).toBeUndefined();
  });

  it("rejects records that are not objects", () => {
    expect(validateRecord(["q", "a"], at).issues).toEqual([
      { line: 3, message: 'must be an object with "id", "question" and "answers" fields (got a list)' },
    ]);
  });
});
