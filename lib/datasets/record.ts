import type { DatasetIssue, RecordLocation } from "./errors";
import { fieldLengthProblem, MAX_FIELD_CHARS, MAX_ID_CHARS, MAX_METADATA_FIELDS, MAX_NESTING_DEPTH, formatCount } from "./limits";
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

/** Every field name a record may use for the item itself (the rest is metadata), e.g. to count a CSV header's metadata. */
export const ITEM_FIELD_NAMES: ReadonlySet<string> = new Set([
  ...ID_FIELDS, "question", "answers", "answer", "context", "diagnostic_trace_context", "diagnosticTraceContext",
]);

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
  const metadata = collectMetadata(record, consumed, report);

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
  if (typeof value === "string" && value.trim() !== "") {
    const tooLong = fieldLengthProblem(value, MAX_ID_CHARS, "an id");
    if (tooLong === undefined) return value;
    report(field, tooLong);
    return undefined;
  }
  report(field, `must be a non-empty string or a number (got ${describeValue(value)})`);
  return undefined;
}

function readQuestion(value: unknown, report: Report): string | undefined {
  if (value === undefined) {
    report("question", "missing");
    return undefined;
  }
  if (typeof value === "string" && value.trim() !== "") return withinFieldLimit("question", value, report);
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
  if (typeof single === "string" && single.trim() !== "") return withinFieldLimit("answer", single, report) === undefined ? undefined : [single];
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
  const longIndex = value.findIndex((answer) => (answer as string).length > MAX_FIELD_CHARS);
  if (longIndex >= 0) {
    report(field, `answer ${longIndex + 1} ${fieldLengthProblem(value[longIndex] as string)}`);
    return undefined;
  }
  return [...(value as string[])];
}

/** Missing and null both mean "not given". */
function readOptionalString(field: string, value: unknown, report: Report): string | undefined {
  if (value == null) return undefined;
  if (typeof value === "string") return withinFieldLimit(field, value, report);
  report(field, `must be a string (got ${describeValue(value)})`);
  return undefined;
}

function withinFieldLimit(field: string, value: string, report: Report): string | undefined {
  const tooLong = fieldLengthProblem(value);
  if (tooLong === undefined) return value;
  report(field, tooLong);
  return undefined;
}

/**
 * Every unconsumed field, in source order. A `metadata` object is merged rather than nested so that
 * re-importing items exported by Skillboard gives back the same items.
 */
function collectMetadata(record: Record<string, unknown>, consumed: ReadonlySet<string>, report: Report): Record<string, unknown> | undefined {
  const entries: [string, unknown][] = [];
  for (const [name, value] of Object.entries(record)) {
    if (consumed.has(name)) continue;
    if (name === "metadata" && isPlainObject(value)) entries.push(...Object.entries(value));
    else entries.push([name, value]);
  }
  if (entries.length > MAX_METADATA_FIELDS) {
    const first = entries[MAX_METADATA_FIELDS]![0];
    report(first, `is metadata field ${MAX_METADATA_FIELDS + 1} of ${formatCount(entries.length)}; an item can carry at most ${MAX_METADATA_FIELDS} metadata fields`);
    return undefined;
  }
  for (const [name, value] of entries) {
    const problem = metadataValueProblem(value, 0);
    if (problem !== undefined) report(name, problem);
  }
  // fromEntries defines own properties, so a "__proto__" field stays data instead of changing the prototype.
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/**
 * Too deep or holding too long a text. The walk stops at the depth limit, so a value nested 200,000 levels deep (which
 * JSON.parse builds without trouble) costs no more than one at the limit, and nothing later recurses past it.
 */
function metadataValueProblem(value: unknown, depth: number): string | undefined {
  if (typeof value === "string") {
    if (value.length <= MAX_FIELD_CHARS) return undefined;
    return depth === 0 ? fieldLengthProblem(value) : `holds a text of ${formatCount(value.length)} characters; a text can be at most ${formatCount(MAX_FIELD_CHARS)}`;
  }
  if (typeof value !== "object" || value === null) return undefined;
  if (depth >= MAX_NESTING_DEPTH) return `is nested more than ${MAX_NESTING_DEPTH} levels deep; a field can nest at most ${MAX_NESTING_DEPTH} levels`;
  for (const inner of Array.isArray(value) ? value : Object.values(value)) {
    const problem = metadataValueProblem(inner, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
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
