/** Thrown into the body stream when it passes the byte limit. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  constructor(readonly limit: number) {
    super(`request body exceeds ${limit} bytes`);
  }
}

/**
 * Passes a byte stream through, counting it, and fails it (with BodyTooLargeError) as soon as it passes
 * `limit` bytes: a body without a Content-Length, or with a false one, is never read past the limit.
 */
export function countBytes(
  body: ReadableStream<Uint8Array>,
  limit: number,
): { stream: ReadableStream<Uint8Array>; bytesRead(): number; ended(): boolean } {
  let bytes = 0;
  let ended = false;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      bytes += chunk.byteLength;
      if (bytes > limit) controller.error(new BodyTooLargeError(limit));
      else controller.enqueue(chunk);
    },
    flush() {
      ended = true;
    },
  });
  return { stream: body.pipeThrough(counter), bytesRead: () => bytes, ended: () => ended };
}

/**
 * Reads what is left of a request body and drops it. Answering before the whole body has been read left the
 * connection unusable: the client's next request on it hung for ~6 s and was then reset (a file refused for its first
 * bytes, then the next upload). Bounded by the byte limit, where the counting stream fails.
 */
export async function discardRest(stream: ReadableStream<Uint8Array>): Promise<void> {
  if (stream.locked) return;
  const reader = stream.getReader();
  try {
    while (!(await reader.read()).done);
  } catch {
    // Over the limit, or the client went away: nothing more to read either way.
  } finally {
    reader.releaseLock();
  }
}
