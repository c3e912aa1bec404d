/**
 * How large and how deep one record may be. A file under the upload limit can still be built to ruin the server: a
 * million columns, one 190 MB question, JSON nested thousands of levels deep. Every page, hash and prompt is sized by
 * these, so a file past one of them is refused with the line and field rather than stored. Documented in the README
 * (Datasets); the same limits apply to results files, whose rows become dataset items.
 */

/** Characters (UTF-16 code units, as JavaScript counts them) in any one text field: a question, an answer, a context. */
export const MAX_FIELD_CHARS = 1_000_000;

/** Characters in an item id: ids appear in URLs, titles and every table row. */
export const MAX_ID_CHARS = 256;

/** Fields beyond id, question, answers, context and the diagnostic trace, per item (a CSV's extra columns). */
export const MAX_METADATA_FIELDS = 64;

/** Levels of lists and objects inside one metadata field. */
export const MAX_NESTING_DEPTH = 32;

/**
 * Characters in one record's text: a JSONL line, a CSV row, a JSON list element, a results line. Past it the record is
 * refused without being parsed or even held whole, so one long line costs time linear in its length and bounded memory.
 */
export const MAX_RECORD_CHARS = 16_000_000;

/** 1,000,000 — how messages write a count. */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/** `is 1,000,001 characters long; a field can be at most 1,000,000`, or undefined when within the limit. */
export function fieldLengthProblem(value: string, max = MAX_FIELD_CHARS, what = "a field"): string | undefined {
  if (value.length <= max) return undefined;
  return `is ${formatCount(value.length)} characters long; ${what} can be at most ${formatCount(max)}`;
}
