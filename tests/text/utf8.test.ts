// Utf8ChunkDecoder against the reference it replaces, TextDecoder's own stream mode (fatal): the same text from any
// split of the bytes into chunks, and a TypeError for the same inputs.
import { describe, expect, it } from "vitest";
import { completeCharactersEnd, decodeUtf8, MAX_PIECE_BYTES, Utf8ChunkDecoder } from "@/lib/text/utf8";

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// One, two, three and four bytes each, and a byte order mark.
const PIECES = ["a", "Z", "\n", "é", "ß", "ж", "€", "中", "\uFEFF", "😀", "𝄞"];

function chunksOf(bytes: Uint8Array, next: () => number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(next() * 7);
    chunks.push(bytes.slice(at, at + size));
    at += size;
  }
  return chunks;
}

type Outcome = { text: string } | { error: string };

function reference(chunks: Uint8Array[], keepBom: boolean): Outcome {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: keepBom });
  try {
    return { text: chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("") + decoder.decode() };
  } catch (error) {
    return { error: (error as Error).constructor.name };
  }
}

function chunked(chunks: Uint8Array[], keepBom: boolean): Outcome {
  const decoder = new Utf8ChunkDecoder({ keepBom });
  try {
    return { text: chunks.map((chunk) => decoder.write(chunk).join("")).join("") + decoder.end() };
  } catch (error) {
    return { error: (error as Error).constructor.name };
  }
}

describe("Utf8ChunkDecoder", () => {
  it("gives TextDecoder's text for valid UTF-8 split anywhere, a character's bytes across chunks included", () => {
    const next = random(1);
    for (let round = 0; round < 2000; round++) {
      const text = Array.from({ length: Math.floor(next() * 12) }, () => PIECES[Math.floor(next() * PIECES.length)]).join("");
      const bytes = new TextEncoder().encode(text);
      const chunks = chunksOf(bytes, next);
      for (const keepBom of [true, false]) {
        const outcome = chunked(chunks, keepBom);
        expect(outcome, JSON.stringify({ text, keepBom, chunks: chunks.map((c) => [...c]) })).toEqual(reference(chunks, keepBom));
      }
    }
  });

  it("refuses what TextDecoder refuses: stray, missing or extra continuation bytes, overlong forms, surrogates", () => {
    const next = random(2);
    const bad = [[0x80], [0xbf, 0x41], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80],
      [0xf8, 0x88, 0x80, 0x80, 0x80], [0xff], [0xe2, 0x82, 0xac, 0xac], [0xf4, 0x90, 0x80, 0x80]];
    let refused = 0;
    for (let round = 0; round < 1500; round++) {
      const good = new TextEncoder().encode(PIECES.slice(0, 1 + Math.floor(next() * PIECES.length)).join(""));
      const wrong = bad[round % bad.length]!;
      const at = Math.floor(next() * (good.length + 1));
      const bytes = new Uint8Array([...good.subarray(0, at), ...wrong, ...good.subarray(at)]);
      const chunks = chunksOf(bytes, next);
      const expected = reference(chunks, true);
      expect(chunked(chunks, true), JSON.stringify({ bytes: [...bytes], chunks: chunks.map((c) => [...c]) })).toEqual(expected);
      if ("error" in expected) refused += 1;
    }
    expect(refused).toBeGreaterThan(1000);
  });

  it("does not keep the caller's chunk: a Buffer reused for the next read (as file reads do) leaves the text intact", () => {
    const bytes = new TextEncoder().encode("ab€cd");
    const buffer = Buffer.alloc(3);
    const decoder = new Utf8ChunkDecoder();
    let text = "";
    for (let at = 0; at < bytes.length; at += 3) {
      const part = bytes.subarray(at, at + 3);
      buffer.fill(0).set(part);
      text += decoder.write(buffer.subarray(0, part.length)).join("");
    }
    expect(text + decoder.end()).toBe("ab€cd");
  });

  it("hands a large chunk over in pieces of at most MAX_PIECE_BYTES, each ending between characters", () => {
    const text = "ab€😀ж".repeat(60_000) + "x"; // ~0.7 MB, characters of every width across every piece boundary
    for (const offset of [0, 1, 2, 3]) {
      const bytes = new TextEncoder().encode("a".repeat(offset) + text);
      const decoder = new Utf8ChunkDecoder();
      const pieces = decoder.write(bytes);
      expect(pieces.length).toBeGreaterThan(bytes.length / MAX_PIECE_BYTES);
      for (const piece of pieces) {
        expect(piece.length).toBeGreaterThan(0);
        expect(new TextEncoder().encode(piece).length).toBeLessThanOrEqual(MAX_PIECE_BYTES);
      }
      expect(pieces.join("") + decoder.end()).toBe("a".repeat(offset) + text);
    }
  });

  it("finds where an unfinished last character begins", () => {
    const euro = [0xe2, 0x82, 0xac];
    expect(completeCharactersEnd(new Uint8Array([0x61, ...euro]))).toBe(4);
    expect(completeCharactersEnd(new Uint8Array([0x61, ...euro.slice(0, 2)]))).toBe(1);
    expect(completeCharactersEnd(new Uint8Array([0x61, 0xf0, 0x9f, 0x98]))).toBe(1);
    expect(completeCharactersEnd(new Uint8Array([]))).toBe(0);
  });
});

describe("decodeUtf8", () => {
  it("drops a byte order mark and refuses what is not UTF-8", () => {
    expect(decodeUtf8(new TextEncoder().encode("\uFEFFskill é"))).toBe("skill é");
    expect(decodeUtf8(new Uint8Array([0x73, 0xe9, 0x74]))).toBeUndefined();
  });
});
