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
