import { LineSplitter, type SplitLine } from "../datasets/line-splitter";
import { sourceChunks, type ChunkSource } from "../datasets/source-chunks";
import { shareEventLoop } from "../datasets/time-slice";
import { Utf8ChunkDecoder } from "../text/utf8";

/** Where a results file comes from: a file's or a request body's chunks. */
export type LineSource = ChunkSource;

/**
 * The non-blank lines of a UTF-8 text stream with their 1-based numbers; only the current partial line is buffered, and
 * a line past the record limit only up to it (`cut`). Invalid UTF-8 fails (fatal, a TypeError) rather than turning into
 * replacement characters in answers. Shares the event loop between chunks.
 */
export async function* readLines(source: LineSource): AsyncGenerator<SplitLine> {
  const decoder = new Utf8ChunkDecoder();
  const splitter = new LineSplitter();
  for await (const chunk of sourceChunks(source)) {
    for (const text of typeof chunk === "string" ? [chunk] : decoder.write(chunk)) {
      for (const line of splitter.push(text)) if (line.cut || line.text.trim()) yield line;
    }
    await shareEventLoop();
  }
  for (const line of [...splitter.push(decoder.end()), ...splitter.end()]) if (line.cut || line.text.trim()) yield line;
}
