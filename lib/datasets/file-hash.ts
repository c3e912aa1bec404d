import { createHash } from "node:crypto";
import { reusedFileChunks } from "./file-chunks";

/**
 * The sha256 of a dataset file's bytes (hex, as `sha256sum` prints it), which users compare with their copy. Not the
 * items hash of ./hash.ts, which recognises the same data in another format or layout.
 */

/** Passes a byte stream through unchanged, hashing it on the way; `digest()` once the stream has ended. */
export function sha256Passthrough(body: ReadableStream<Uint8Array>): { stream: ReadableStream<Uint8Array>; digest(): string } {
  const hash = createHash("sha256");
  let digest: string | undefined;
  const hasher = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      hash.update(chunk);
      controller.enqueue(chunk);
    },
    flush() {
      digest = hash.digest("hex");
    },
  });
  return {
    stream: body.pipeThrough(hasher),
    digest() {
      if (digest === undefined) throw new Error("the stream has not ended: its sha256 is not known yet");
      return digest;
    },
  };
}

/** The sha256 of a file on disk, read in order (reusedFileChunks). */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of reusedFileChunks(path)) hash.update(chunk);
  return hash.digest("hex");
}
