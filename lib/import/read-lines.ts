/** Where a results file comes from: a file's or a request body's chunks. */
export type LineSource = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array> | ReadableStream<string | Uint8Array>;

/**
 * The lines of a UTF-8 text stream with their 1-based numbers, blank lines skipped; only the current partial line is
 * buffered. Invalid UTF-8 fails (fatal) rather than turning into replacement characters in answers.
 */
export async function* readLines(source: LineSource): AsyncGenerator<{ line: number; text: string }> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pending = "";
  let line = 0;
  const iterable = isReadableStream(source) ? streamChunks(source) : source;
  for await (const chunk of iterable) {
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

function isReadableStream(source: LineSource): source is ReadableStream<string | Uint8Array> {
  return typeof (source as ReadableStream).getReader === "function";
}

async function* streamChunks<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
