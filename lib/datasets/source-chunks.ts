/** Where uploaded text comes from: a file's or a request body's chunks, as an iterable or a web stream. */
export type ChunkSource<T = string | Uint8Array> = AsyncIterable<T> | Iterable<T> | ReadableStream<T>;

/** The chunks of any such source as one async iterable (a web stream's reader is released at the end). */
export async function* sourceChunks<T>(source: ChunkSource<T>): AsyncGenerator<T> {
  if (typeof (source as ReadableStream<T>).getReader !== "function") {
    yield* source as AsyncIterable<T> | Iterable<T>;
    return;
  }
  const reader = (source as ReadableStream<T>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
