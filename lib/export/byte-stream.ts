/**
 * Characters per chunk at most, when lines are grouped into chunks (a line longer than this is a chunk of its own). V8
 * keeps a string past 128 KB, and the bytes it is encoded into, in memory mapped for each, and touching fresh pages is
 * slow on these hosts (~5.7 µs a 4 KB page); chunks of this size stay in the young generation and its pooled buffers.
 */
export const MAX_CHUNK_CHARS = 16 * 1024;

/** The lines joined into chunks of at most MAX_CHUNK_CHARS characters (more only for a single longer line), in order. */
export function* joinedInChunks(lines: readonly string[], maxChars: number = MAX_CHUNK_CHARS): Generator<string> {
  let start = 0;
  let chars = 0;
  for (let i = 0; i < lines.length; i++) {
    const length = lines[i]!.length;
    if (i > start && chars + length > maxChars) {
      yield lines.slice(start, i).join("");
      start = i;
      chars = 0;
    }
    chars += length;
  }
  if (start < lines.length) yield lines.slice(start).join("");
}

/**
 * Text chunks from a generator (async, or sync for text already computed) as a byte stream with backpressure: the
 * next chunk is produced only when the consumer pulls (highWaterMark 0 after the first), so a slow download never
 * makes the server read ahead into memory. Cancelling the stream (the client went away) stops the generator, which
 * ends its database paging.
 */
export function textChunksToStream(chunks: AsyncGenerator<string> | Generator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { value, done } = await chunks.next();
          if (done) controller.close();
          else if (value) controller.enqueue(encoder.encode(value));
        } catch (error) {
          // The response has started, so no status can say it failed: the client sees a cut connection; say why here.
          process.stderr.write(`skillboard: a download stopped part-way: ${(error as Error).message}\n`);
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** A streamed file download: the content type, an attachment name, no sniffing, never cached. */
export function downloadResponse(chunks: AsyncGenerator<string> | Generator<string>, download: { contentType: string; fileName: string; disposition: string }): Response {
  return new Response(textChunksToStream(chunks), {
    headers: {
      "Content-Type": download.contentType,
      "Content-Disposition": download.disposition,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    },
  });
}
