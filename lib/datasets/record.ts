import type { DatasetIssue, RecordLocation } from "./errors";
import type { DatasetItem } from "./types";

/**
 * Outcome of checking one source record. `id` is reported even when the record is invalid,
 * so duplicate ids can be listed in the same pass as the other problems.
 */
export interface RecordCheck {
  item?: DatasetItem;
  id?: string;
  issues: DatasetIssue[];
}

/** Fields that map onto DatasetItem; everything else in a record goes into `metadata`. */
const ID_FIELDS = ["id", "key"] as const;

/**
 * The single record → DatasetItem validation used by every format (JSON, JSONL, CSV rows).
 * `record` is whatever the format produced: a parsed JSON value, or an object built from a CSV row.
 */
export function validateRecord(record: unknown, location: RecordLocation): RecordCheck {
  const issues: DatasetIssue[] = [];
  const report = (field: string | undefined, message: string): void => {
    issues.push({ ...location, ...(field !== undefined && { field }), message });
  };

  if (!isPlainObject(record)) {
    report(undefined, `must be an object with "id", "question" and "answers" fields (got ${describeValue(record)})`);
    return { issues };
  }

  // Fields consumed into DatasetItem; the rest become metadata.
  const consumed = new Set<string>();
  const take = (field: string): unknown => {
    consumed.add(field);
    return record[field];
  };

  const id = readId(record, take, report);
  const question = readQuestion(take("question"), report);
  const answers = readAnswers(record, take, report);
  const context = readOptionalString("context", take("context"), report) ?? "";
  // The camelCase spelling is what Skillboard itself exports; the snake_case one is the documented input.
  const diagnosticField =
    record.diagnostic_trace_context === undefined && record.diagnosticTraceContext !== undefined
      ? "diagnosticTraceContext"
      : "diagnostic_trace_context";
  const diagnosticTraceContext = readOptionalString(diagnosticField, take(diagnosticField), report);
  const metadata = collectMetadata(record, consumed);

  if (issues.length > 0 || id === undefined || question === undefined || answers === undefined) {
    return { ...(id !== undefined && { id }), issues };
  }
  const item: DatasetItem = {
    id,
    question,
    context,
    answers,
    ...(diagnosticTraceContext !== undefined && { diagnosticTraceContext }),
    ...(metadata !== undefined && { metadata }),
  };
  return { item, id, issues };
}

type Take = (field: string) => unknown;
type Report = (field: string | undefined, message: string) => void;

/** `id`, else `key` (the public SearchQA release names it so); numbers become strings. */
function readId(record: Record<string, unknown>, take: Take, report: Report): string | undefined {
  const field = ID_FIELDS.find((name) => record[name] != null);
  // A null id next to a usable key is "not given", not metadata.
  for (const name of ID_FIELDS) if (record[name] === null) take(name);
  if (field === undefined) {
    report("id", `missing (expected "id" or "key")`);
    return undefined;
  }
  const value = take(field);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value;
  report(field, `must be a non-empty string or a number (got ${describeValue(value)})`);
  return undefined;
}

function readQuestion(value: unknown, report: Report): string | undefined {
  if (value === undefined) {
    report("question", "missing");
    return undefined;
  }
  if (typeof value === "string" && value.trim() !== "") return value;
  report("question", `must be a non-empty string (got ${describeValue(value)})`);
  return undefined;
}

/** `answers` (a list), else `answer` (a single string; a list is tolerated too). */
function readAnswers(record: Record<string, unknown>, take: Take, report: Report): string[] | undefined {
  if (record.answers !== undefined) return readAnswerList("answers", take("answers"), report);
  if (record.answer === undefined) {
    report("answers", `missing (expected an "answers" list or an "answer" string)`);
    return undefined;
  }
  const single = take("answer");
  if (Array.isArray(single)) return readAnswerList("answer", single, report);
  if (typeof single === "string" && single.trim() !== "") return [single];
  report("answer", `must be a non-empty string (got ${describeValue(single)})`);
  return undefined;
}

function readAnswerList(field: string, value: unknown, report: Report): string[] | undefined {
  const problem = "must be a non-empty list of strings";
  if (!Array.isArray(value)) {
    report(field, `${problem} (got ${describeValue(value)})`);
    return undefined;
  }
  if (value.length === 0) {
    report(field, `${problem} (got an empty list)`);
    return undefined;
  }
  // An empty answer would match an empty prediction, so it is as wrong as a non-string.
  const badIndex = value.findIndex((answer) => typeof answer !== "string" || answer.trim() === "");
  if (badIndex >= 0) {
    report(field, `${problem} (answer ${badIndex + 1} is ${describeValue(value[badIndex])})`);
    return undefined;
  }
  return [...(value as string[])];
}

/** Missing and null both mean "not given". */
function readOptionalString(field: string, value: unknown, report: Report): string | undefined {
  if (value == null) return undefined;
  if (typeof value === "string") return value;
  report(field, `must be a string (got ${describeValue(value)})`);
  return undefined;
}

/**
 * Every unconsumed field, in source order. A `metadata` object is merged rather than nested so that
 * re-importing items exported by Skillboard gives back the same items.
 */
function collectMetadata(record: Record<string, unknown>, consumed: ReadonlySet<string>): Record<string, unknown> | undefined {
  const entries: [string, unknown][] = [];
  for (const [name, value] of Object.entries(record)) {
    if (consumed.has(name)) continue;
    if (name === "metadata" && isPlainObject(value)) entries.push(...Object.entries(value));
    else entries.push([name, value]);
  }
  // fromEntries defines own properties, so a "__proto__" field stays data instead of changing the prototype.
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** "a number", "an empty list", … for messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (typeof value === "string") return value === "" ? "an empty string" : value.trim() === "" ? "a blank string" : "a string";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
