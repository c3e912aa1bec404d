import { pySplitlines, pyStrip } from "../text/python";

/**
 * The seed's `re.findall(r"<answer>(.*?)</answer>", text, re.DOTALL | re.IGNORECASE)`. `s` is DOTALL; `iu`
 * gives Unicode case-insensitivity as Python's str patterns have it (`<ANSWER>` and `<anſwer>`, with U+017F
 * LONG S, both match). Non-greedy and non-overlapping, scanned left to right like findall.
 */
export const ANSWER_TAG = /<answer>(.*?)<\/answer>/gisu;

/**
 * The seed's `extract_answer`: the last `<answer>` tag's content (even when that content is empty), else the
 * last non-blank line, using Python's notion of line breaks and whitespace.
 */
export function extractAnswer(text: string): string {
  let lastTagContent: string | undefined;
  for (const match of text.matchAll(ANSWER_TAG)) lastTagContent = match[1] ?? "";
  if (lastTagContent !== undefined) return pyStrip(lastTagContent);

  const lines = pySplitlines(pyStrip(text))
    .map(pyStrip)
    .filter((line) => line !== "");
  return lines.at(-1) ?? pyStrip(text);
}
