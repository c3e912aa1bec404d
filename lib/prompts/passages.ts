/**
 * The passages of a context in the prompt format: SearchQA's `[DOC] [TLE] title [PAR] text`, or paragraphs. Part of
 * the prompt format, so it lives here; the item view and the offline baseline reader both read contexts with it.
 */

export interface Passage {
  title: string;
  text: string;
}

/** SearchQA-style `[DOC] [TLE] title [PAR] text` passages; otherwise blank-line-separated paragraphs. */
export function splitPassages(context: string): Passage[] {
  const chunks = /\[(DOC|TLE|PAR)\]/.test(context) ? context.split("[DOC]") : context.split(/\n\s*\n/);
  const passages: Passage[] = [];
  for (const chunk of chunks) {
    const match = /^\s*\[TLE\]([\s\S]*?)(?:\[PAR\]([\s\S]*))?$/.exec(chunk);
    const title = (match ? match[1] ?? "" : "").trim();
    const text = (match ? match[2] ?? "" : chunk.replace(/^\s*\[PAR\]/, "")).trim();
    if (title || text) passages.push({ title, text });
  }
  return passages;
}
