/**
 * The one UTF-8 check for everything uploaded (datasets, results files, skills): bytes that are not UTF-8 (a Latin-1
 * export, a binary) are refused, never turned into silent replacement characters in questions, answers or prompts.
 */

/** What every upload says about such a file, after its name. */
export const NOT_UTF8_MESSAGE = "is not valid UTF-8 text (save it as UTF-8)";

const BOM = "\uFEFF";

function fatalDecoder(): TextDecoder {
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
}

/**
 * Bytes decoded into one string at most. V8 keeps a string past 128 KB outside its young generation, in memory it maps
 * for that string alone, and touching fresh pages is slow here: a 70 MB dataset read in 1 MB chunks took 190-250 ms to
 * decode into 1 MB strings, and 7-26 ms into 64 KB ones. 32 KB keeps even text of two-byte characters (a string of up
 * to 32 K UTF-16 units, 64 KB) in the young generation.
 */
export const MAX_PIECE_BYTES = 32 * 1024;

/**
 * Decodes UTF-8 bytes that arrive in chunks (a multi-byte character may be split across two), and throws TypeError, as
 * a fatal TextDecoder does, at the first bytes that are not UTF-8. `keepBom`: leave a byte order mark in the text, for
 * readers that strip it the same way whether they were given text or bytes.
 *
 * Why not TextDecoder's own `stream: true`: Node decodes streamed input through ICU, and whole input through simdutf.
 * A 7.2 MB dataset in 64 KB chunks: 20 ms at the first import of a process and 4.7 ms after, against 1.6 and 1.3 ms
 * decoding each chunk's complete characters whole and carrying the last one's first bytes over.
 */
export class Utf8ChunkDecoder {
  private readonly decoder = fatalDecoder();
  /** The first bytes of a character whose last ones are in the next chunk. */
  private carry: Uint8Array | null = null;
  private atStart = true;

  constructor(private readonly options: { keepBom?: boolean } = {}) {}

  /**
   * The text of the chunk's complete characters (with those the previous chunk began), in pieces of at most
   * MAX_PIECE_BYTES bytes each, none empty. The chunk is not kept.
   */
  write(chunk: Uint8Array): string[] {
    let bytes = chunk;
    if (this.carry) {
      bytes = new Uint8Array(this.carry.length + chunk.length);
      bytes.set(this.carry);
      bytes.set(chunk, this.carry.length);
      this.carry = null;
    }
    const end = completeCharactersEnd(bytes);
    // A copy (a Buffer's slice() is a view): the caller may reuse the chunk's buffer for its next read.
    if (end < bytes.length) this.carry = new Uint8Array(bytes.subarray(end));
    const pieces: string[] = [];
    for (let at = 0; at < end; ) {
      const limit = Math.min(end, at + MAX_PIECE_BYTES);
      // Pieces end between characters; a piece with no boundary in it (bytes that are not UTF-8) goes whole.
      const boundary = limit === end ? limit - at : completeCharactersEnd(bytes.subarray(at, limit));
      const stop = boundary > 0 ? at + boundary : limit;
      const text = this.text(this.decoder.decode(bytes.subarray(at, stop)));
      if (text !== "") pieces.push(text);
      at = stop;
    }
    return pieces;
  }

  /** The end of the input: throws if it stops inside a character. */
  end(): string {
    const rest = this.carry ?? new Uint8Array(0);
    this.carry = null;
    return this.text(this.decoder.decode(rest));
  }

  private text(decoded: string): string {
    if (!this.atStart || decoded === "") return decoded;
    this.atStart = false;
    return !this.options.keepBom && decoded.startsWith(BOM) ? decoded.slice(1) : decoded;
  }
}

/**
 * Where the last character of `bytes` begins if the bytes stop before its end, else their length. Bytes that cannot be
 * UTF-8 there (more than three continuation bytes, a stray one) are left in, for the decoder to refuse.
 */
export function completeCharactersEnd(bytes: Uint8Array): number {
  let lead = bytes.length - 1;
  // Continuation bytes are 10xxxxxx; a character has at most three after its lead byte.
  while (lead >= 0 && bytes.length - lead <= 3 && (bytes[lead]! & 0xc0) === 0x80) lead -= 1;
  if (lead < 0) return bytes.length;
  const first = bytes[lead]!;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return bytes.length - lead < length ? lead : bytes.length;
}

/** The text of whole UTF-8 bytes (a byte order mark removed), or undefined when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    const text = fatalDecoder().decode(bytes);
    return text.startsWith(BOM) ? text.slice(1) : text;
  } catch {
    return undefined;
  }
}
