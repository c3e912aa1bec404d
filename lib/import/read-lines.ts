import { sourceChunks, type ChunkSource } from "../datasets/source-chunks";

/** Where a results file comes from: a file's or a request body's chunks. */
export type LineSource = ChunkSource;

/**
 * The lines of a UTF-8 text stream with their 1-based numbers, blank lines skipped; only the current partial line is
 * buffered. Invalid UTF-8 fails (fatal) rather than turning into replacement characters in answers.
 */
export async function* readLines(source: LineSource): AsyncGenerator<{ line: number; text: string }> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pending = "";
  let line = 0;
  for await (const chunk of sourceChunks(source)) {
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let newline = pending.indexOf("\n"); newline !== -1; newline = pending.indexOf("\n", start)) {
      line += 1;
      const text = pending.slice(start, newline).replace(/\r$/, "");
      start = newline + 1;
      if (text.trim()) yield { line, text };
    }
    pending = pending.slice(start);
  }
  pending += decoder.decode();
  line += 1;
  const last = pending.replace(/\r$/, "");
  if (last.trim()) yield { line, text: last };
}
