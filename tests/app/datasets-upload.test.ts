// POST /api/datasets: the raw file is streamed into the validating parser; bad input answers 400 or 413
// and stores nothing, a valid file answers 201 with every item stored.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { handleDatasetUpload } from "@/app/api/datasets/dataset-upload";
import { getDataset, getDatasetItems, listDatasets } from "@/lib/db";
import { createTestDb, type TestDatabase } from "../support/test-db";
import { measureLongestStall } from "../support/event-loop";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(async () => {
  await t.close();
});

function upload(query: Record<string, string>, body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1/api/datasets?${new URLSearchParams(query)}`, {
    method: "POST",
    body,
    headers,
    // Node's fetch needs this for a streamed body.
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** A body delivered in several chunks, with no Content-Length, as a browser upload arrives. */
function chunked(text: string | Uint8Array, chunkBytes = 64): ReadableStream<Uint8Array> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkBytes));
      offset += chunkBytes;
    },
  });
}

const line = (item: object) => `${JSON.stringify(item)}\n`;
const VALID = line({ id: "a", question: "Q1?", answers: ["x"], context: "ctx" }) + line({ id: "b", question: "Q2?", answer: "y", category: "geo" });

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

describe("POST /api/datasets", () => {
  it("400 when the name is missing, naming the field", async () => {
    const response = await handleDatasetUpload(t.db, upload({ fileName: "d.jsonl" }, VALID));
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.issues).toEqual([{ field: "name", message: "name is required" }]);
    expect(await listDatasets(t.db)).toHaveLength(0);
  });

  it("400 for a file name without an allowed extension", async () => {
    const response = await handleDatasetUpload(t.db, upload({ name: "d", fileName: "data.xlsx" }, VALID));
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.issues).toEqual([{ field: "fileName", message: expect.stringMatching(/data\.xlsx.*\.json, \.jsonl, \.ndjson or \.csv/) }]);
    expect(await listDatasets(t.db)).toHaveLength(0);
  });

  it("400 for broken JSONL, with issues naming line and field, and nothing stored", async () => {
    const broken = VALID + line({ id: "c", question: "Q3?", answers: [] }) + "{not json\n" + line({ id: "e", answers: ["z"] });
    const response = await handleDatasetUpload(t.db, upload({ name: "broken", fileName: "broken.jsonl" }, chunked(broken, 17)));
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.file).toBe("broken.jsonl");
    expect(body.issues).toEqual([
      expect.objectContaining({ line: 3, field: "answers" }),
      expect.objectContaining({ line: 4 }),
      expect.objectContaining({ line: 5, field: "question" }),
    ]);
    expect(body.error).toMatch(/^broken\.jsonl: line 3: field "answers": /m);
    expect(await listDatasets(t.db)).toHaveLength(0);
  });

  it("201 for a valid streamed upload, with every item stored", async () => {
    const response = await handleDatasetUpload(t.db, upload({ name: " Mini ", fileName: "mini.jsonl" }, chunked(VALID)));
    expect(response.status).toBe(201);
    const body = await json(response);
    expect(body).toMatchObject({ name: "Mini", itemCount: 2, duplicateOfId: null });
    const dataset = await getDataset(t.db, body.id as number);
    expect(dataset).toMatchObject({ fileName: "mini.jsonl", format: "jsonl", itemCount: 2 });
    expect(dataset.stats.metadataFields).toEqual({ category: 1 });
    expect((await getDatasetItems(t.db, dataset.id)).map((item) => [item.id, item.answers])).toEqual([
      ["a", ["x"]],
      ["b", ["y"]],
    ]);
  });

  it("imports the SearchQA fixture and points out a repeat upload of the same items", async () => {
    const text = readFileSync("tests/fixtures/datasets/searchqa-mini.jsonl");
    const first = await json(await handleDatasetUpload(t.db, upload({ name: "sq", fileName: "sq.jsonl" }, text)));
    const again = await handleDatasetUpload(t.db, upload({ name: "sq again", fileName: "sq.jsonl" }, text));
    expect(again.status).toBe(201);
    expect(await json(again)).toMatchObject({ duplicateOfId: first.id });
  });

  it("records the file's own sha256 (what sha256sum prints) beside the hash of its items", async () => {
    // A byte order mark and CRLF line ends: the parser drops them, the file's hash must not.
    const bytes = new TextEncoder().encode(`\uFEFF${VALID.replaceAll("\n", "\r\n")}`);
    const response = await handleDatasetUpload(t.db, upload({ name: "bom", fileName: "bom.jsonl" }, chunked(bytes, 7)));
    expect(response.status).toBe(201);
    const dataset = await getDataset(t.db, (await json(response)).id as number);
    expect(dataset.fileSha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    // The same items without the BOM and CRLF: the same items hash, another file.
    const plain = await getDataset(t.db, (await json(await handleDatasetUpload(t.db, upload({ name: "plain", fileName: "plain.jsonl" }, VALID)))).id as number);
    expect(plain.hash).toBe(dataset.hash);
    expect(plain.fileSha256).toBe(createHash("sha256").update(VALID).digest("hex"));
    expect(plain.fileSha256).not.toBe(dataset.fileSha256);
  });

  it("accepts CSV", async () => {
    const csv = 'id,question,answers\n1,"Capital of France?","[""Paris""]"\n2,Largest ocean?,Pacific|Pacific Ocean\n';
    const response = await handleDatasetUpload(t.db, upload({ name: "csv", fileName: "qa.csv" }, csv));
    expect(response.status).toBe(201);
    const items = await getDatasetItems(t.db, (await json(response)).id as number);
    expect(items.map((item) => item.answers)).toEqual([["Paris"], ["Pacific", "Pacific Ocean"]]);
  });

  it("413 for a body over the limit, whether it declares its length or not", async () => {
    const big = VALID.repeat(50);
    const declared = await handleDatasetUpload(t.db, upload({ name: "big", fileName: "big.jsonl" }, big, { "content-length": String(big.length) }), { maxBytes: 1000 });
    expect(declared.status).toBe(413);
    const undeclared = await handleDatasetUpload(t.db, upload({ name: "big", fileName: "big.jsonl" }, chunked(big)), { maxBytes: 1000 });
    expect(undeclared.status).toBe(413);
    expect((await json(undeclared)).error).toMatch(/limit; nothing was stored/);
    expect(await listDatasets(t.db)).toHaveLength(0);
  });

  it("413 when fewer bytes arrive than were declared (a body cut off on the way), not a misleading parse error", async () => {
    const cut = VALID.slice(0, VALID.length - 20);
    const response = await handleDatasetUpload(t.db, upload({ name: "cut", fileName: "cut.jsonl" }, chunked(cut), { "content-length": String(VALID.length) }));
    expect(response.status).toBe(413);
    expect((await json(response)).error).toMatch(/Only \d+ of the file's \d+ bytes reached the server/);
    expect(await listDatasets(t.db)).toHaveLength(0);
  });

  it("400 for an empty file", async () => {
    const response = await handleDatasetUpload(t.db, upload({ name: "empty", fileName: "empty.jsonl" }, ""));
    expect(response.status).toBe(400);
    expect(await listDatasets(t.db)).toHaveLength(0);
  });

  it("stores a large upload (JSONL or JSON) without holding the event loop for long", async () => {
    const records = Array.from({ length: 30_000 }, (_, i) => ({ id: `q${i}`, question: `Question ${i}?`, answers: [`A${i}`], context: `[DOC] [TLE] A${i} [PAR] text` }));
    for (const [fileName, text] of [["large.jsonl", records.map(line).join("")], ["large.json", JSON.stringify(records)]] as const) {
      const { result: response, longestStallMs } = await measureLongestStall(() => handleDatasetUpload(t.db, upload({ name: fileName, fileName }, chunked(text, 65536))));
      expect(response.status, fileName).toBe(201);
      expect(longestStallMs, fileName).toBeLessThan(250);
    }
    expect((await listDatasets(t.db)).map((dataset) => dataset.itemCount)).toEqual([30_000, 30_000]);
  });
});
