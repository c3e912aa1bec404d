import type { DatasetIssue } from "./errors";
import { formatCount, MAX_FIELD_CHARS, MAX_RECORD_CHARS } from "./limits";

/**
 * Why a record longer than MAX_RECORD_CHARS is refused, naming the field that makes it so when there is one: the
 * record is never parsed, only `text` (its first MAX_RECORD_CHARS + 1 characters, or all of it) is walked once.
 */
export function describeOversizedRecord(text: string): Pick<DatasetIssue, "field" | "message"> {
  const field = longestFieldOf(text);
  const limit = formatCount(MAX_RECORD_CHARS);
  if (field !== undefined && field.length > MAX_FIELD_CHARS) {
    const length = field.complete ? `is ${formatCount(field.length)} characters long` : `is longer than ${limit} characters`;
    return { field: field.name, message: `${length}; a field can be at most ${formatCount(MAX_FIELD_CHARS)}` };
  }
  return { message: `the record is longer than ${limit} characters; a record can be at most that long` };
}

interface FieldSpan {
  name: string;
  /** Characters of the value's JSON text. */
  length: number;
  /** false when the text ends inside the value: its real length is more. */
  complete: boolean;
}

/**
 * The top-level field of a JSON object whose value text is the longest: the first past MAX_FIELD_CHARS, or the one
 * the cut-off text ends in. Undefined when the text is not an object's beginning (then there is no field to name).
 */
function longestFieldOf(text: string): FieldSpan | undefined {
  let pos = skipSpace(text, 0);
  if (text[pos] !== "{") return undefined;
  pos += 1;
  let longest: FieldSpan | undefined;
  for (;;) {
    pos = skipSpace(text, pos);
    if (text[pos] !== '"') return longest;
    const keyEnd = stringEnd(text, pos);
    if (keyEnd === undefined) return longest;
    let name: string;
    try {
      name = JSON.parse(text.slice(pos, keyEnd)) as string;
    } catch {
      return longest;
    }
    pos = skipSpace(text, keyEnd);
    if (text[pos] !== ":") return longest;
    const valueStart = skipSpace(text, pos + 1);
    const valueEnd = valueEndAt(text, valueStart);
    const span = { name, length: (valueEnd ?? text.length) - valueStart, complete: valueEnd !== undefined };
    if (longest === undefined || span.length > longest.length) longest = span;
    if (valueEnd === undefined || span.length > MAX_FIELD_CHARS) return longest;
    pos = skipSpace(text, valueEnd);
    if (text[pos] !== ",") return longest;
    pos += 1;
  }
}

function skipSpace(text: string, from: number): number {
  let pos = from;
  while (pos < text.length && " \t\r\n".includes(text[pos]!)) pos += 1;
  return pos;
}

/**
 * Offset just past the string starting at `start` (a quote), or undefined when the text ends first. indexOf, not a
 * regular expression: one over a 16 MB string overflows the regexp engine's stack.
 */
function stringEnd(text: string, start: number): number | undefined {
  for (let quote = text.indexOf('"', start + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === "\\") backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return undefined;
}

/** Offset just past the value starting at `start`: strings skipped whole, brackets counted (no recursion). */
function valueEndAt(text: string, start: number): number | undefined {
  if (text[start] === '"') return stringEnd(text, start);
  let depth = 0;
  let pos = start;
  while (pos < text.length) {
    const char = text[pos]!;
    if (char === '"') {
      const end = stringEnd(text, pos);
      if (end === undefined) return undefined;
      pos = end;
      continue;
    }
    if (char === "{" || char === "[") depth += 1;
    else if (char === "}" || char === "]") {
      if (depth === 0) return pos;
      depth -= 1;
      if (depth === 0) return pos + 1;
    } else if (char === "," && depth === 0) return pos;
    pos += 1;
  }
  return undefined;
}
