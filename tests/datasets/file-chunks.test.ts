// Dataset files are read into one reused buffer: what comes out (the items, the file's sha256) must be what reading
// the whole file gives, wherever the reads' boundaries fall, multi-byte characters included.
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDatasetFile, parseDatasetText, sha256File, streamDatasetFile } from "@/lib/datasets";
import { FILE_CHUNK_BYTES, reusedFileChunks } from "@/lib/datasets/file-chunks";

let dir = "";
let path = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillboard-file-chunks-"));
  path = join(dir, "big.jsonl");
  // ~2.3 reads' worth of lines of two-, three- and four-byte characters, so reads end inside characters.
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < FILE_CHUNK_BYTES * 0.8; i++) {
    lines.push(JSON.stringify({ id: `q${i}`, question: `Où est ${i}? 東京 🗼 ${"é".repeat(i % 7)}`, context: `[DOC] [TLE] Zürich [PAR] ${"ü東🗼".repeat(40 + (i % 13))}`, answers: [`東京 ${i}`] }));
  }
  await writeFile(path, `${lines.join("\n")}\n`);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("reused file chunks", () => {
  it("reads the items a whole-text parse gives, in batches and at once", async () => {
    const expected = parseDatasetText(await readFile(path, "utf8"), { fileName: "big.jsonl" });
    expect(expected.length).toBeGreaterThan(1_000);
    const streamed = [];
    for await (const batch of streamDatasetFile(path)) streamed.push(...batch);
    expect(streamed).toEqual(expected);
    expect(await parseDatasetFile(path)).toEqual(expected);
  });

  it("gives the file's sha256 as hashing its bytes at once does", async () => {
    expect(await sha256File(path)).toBe(createHash("sha256").update(await readFile(path)).digest("hex"));
  });

  it("reads every byte once, in order, into one buffer", async () => {
    const whole = await readFile(path);
    const seen: Buffer[] = [];
    const buffers = new Set<ArrayBufferLike>();
    for await (const chunk of reusedFileChunks(path, 65_536)) {
      seen.push(Buffer.from(chunk));
      buffers.add(chunk.buffer);
    }
    expect(Buffer.concat(seen).equals(whole)).toBe(true);
    expect(seen.length).toBe(Math.ceil(whole.length / 65_536));
    expect(buffers.size).toBe(1);
  });
});
