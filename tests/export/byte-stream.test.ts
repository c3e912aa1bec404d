// Downloads are streamed as text chunks; the exporters group a page's lines into chunks of bounded size.
import { describe, expect, it } from "vitest";
import { joinedInChunks, MAX_CHUNK_CHARS } from "@/lib/export/byte-stream";

describe("joinedInChunks", () => {
  it("keeps every line, in order, in chunks of at most MAX_CHUNK_CHARS characters", () => {
    const lines = Array.from({ length: 500 }, (_, i) => `${JSON.stringify({ id: i, text: "x".repeat((i * 37) % 900) })}\n`);
    const chunks = [...joinedInChunks(lines)];
    expect(chunks.join("")).toBe(lines.join(""));
    expect(chunks.length).toBeGreaterThan(lines.join("").length / MAX_CHUNK_CHARS);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
    // Lines are never split: every chunk ends at the end of a line.
    for (const chunk of chunks) expect(chunk.endsWith("\n")).toBe(true);
  });

  it("gives a line longer than the limit a chunk of its own, and nothing for no lines", () => {
    const long = `${"y".repeat(50)}\n`;
    expect([...joinedInChunks(["a\n", long, "b\n", "c\n"], 20)]).toEqual(["a\n", long, "b\nc\n"]);
    expect([...joinedInChunks([])]).toEqual([]);
  });
});
