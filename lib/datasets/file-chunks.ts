import { open } from "node:fs/promises";

/** Read size for dataset files: large enough that per-read overhead vanishes (a 6 MB file took 37 ms to hash in 64 KB reads). */
export const FILE_CHUNK_BYTES = 1 << 20;

/**
 * A file's bytes, read in order into one buffer that every chunk reuses: each chunk is valid only until the next is
 * asked for, so the reader must consume it at once (a hash's update, a streaming TextDecoder's decode).
 *
 * A read stream makes a new buffer per read, freed only when the collector finds it: importing a 20,000-item file
 * (80 MB, read once for its sha256 and once for its items) left up to ~47 MB of read buffers waiting for collection,
 * which raised the run's peak RSS.
 */
export async function* reusedFileChunks(path: string, chunkBytes = FILE_CHUNK_BYTES): AsyncGenerator<Uint8Array> {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, chunkBytes, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}
