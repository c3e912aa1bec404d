import { pySplit } from "../text/python";

/**
 * Python's `string.punctuation`: ASCII only, so full-width or typographic punctuation („“、！) is kept, as the
 * seed keeps it.
 */
const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/**
 * The seed's `\b(a|an|the)\b`. Python's `\b` on str patterns treats letters, numbers and `_` as word
 * characters (combining marks are not), so "théâtre" keeps its "the" prefix out of the match while "a" next
 * to a combining accent ("a\u0301") still matches. JS `\b` is ASCII-only, hence explicit lookarounds.
 */
const ARTICLE = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/** The seed's `normalize_answer`: lower-case, drop ASCII punctuation, drop articles, collapse whitespace. */
export function normalizeAnswer(s: string): string {
  // `toLowerCase` matches Python's `str.lower()`: full mappings (İ → i̇) and final-sigma handling in both.
  const withoutPunctuation = s.toLowerCase().replace(ASCII_PUNCTUATION, "");
  const withoutArticles = withoutPunctuation.replace(ARTICLE, " ");
  return pySplit(withoutArticles).join(" ");
}
