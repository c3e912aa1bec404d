import { codePointLength, codePointSlice } from "../text/python";

/** The seed's `_MAX_CONTEXT_CHARS`: a budget in Python characters, i.e. code points. */
export const MAX_CONTEXT_CHARS = 6000;

const DOC_SEPARATOR = "[DOC]";
const TRUNCATION_MARK = "\n...[truncated]";

/**
 * The seed's `_truncate_context`: keep whole `[DOC]` passages while they fit in the budget; when not even the
 * first passage fits, cut the raw text and add a marker (so that result is longer than the budget). Lengths are
 * code points because Python's `len()` counts them: an emoji-heavy context must be cut where Python cuts it,
 * never inside a surrogate pair.
 *
 * Copied quirks: a context that starts with "[DOC]" loses that leading separator (the empty first passage
 * leaves the result empty, so the next passage is taken without its separator), and empty passages before the
 * first non-empty one vanish the same way.
 */
export function truncateContext(context: string, maxChars: number = MAX_CONTEXT_CHARS): string {
  if (codePointLength(context) <= maxChars) return context;
  let result = "";
  let resultLength = 0;
  for (const doc of context.split(DOC_SEPARATOR)) {
    const docLength = codePointLength(doc);
    // Track lengths instead of re-measuring the growing candidate: same numbers, linear time.
    const candidateLength = result ? resultLength + DOC_SEPARATOR.length + docLength : docLength;
    if (candidateLength > maxChars) break;
    result = result ? result + DOC_SEPARATOR + doc : doc;
    resultLength = candidateLength;
  }
  if (!result) result = codePointSlice(context, 0, maxChars) + TRUNCATION_MARK;
  return result;
}
