// `run --dataset FILE` and `dataset import FILE` stream the file into the database as it is read: batches are stored
// as they are validated, and a problem found late in the file (past the first batches) still leaves nothing stored.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatasetValidationError, hashDatasetItems, parseDatasetFile, streamDatasetFile } from "@/lib/datasets";
import { getDatasetItems, importDatasetBatches, listDatasets } from "@/lib/db";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeAll(() => {
  t = createTestDb();
});
afterAll(() => t.close());

// Long enough (~4 MB) that the reader hands over several batches before the end of the file.
const line = (i: number, id = `q${i}`) => JSON.stringify({ id, question: `Question ${i}?`, context: `[DOC] [TLE] T${i} [PAR] ${"text ".repeat(400)}`, answers: [`T${i}`] });
function writeLines(name: string, lines: string[]): string {
  const path = join(t.dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}
const N = 2000;

describe("streamed dataset import", () => {
  it("hands the items over in several batches and stores them all, with the same hash as a whole-file parse", async () => {
    const path = writeLines("good.jsonl", Array.from({ length: N }, (_, i) => line(i)));
    let batches = 0;
    const counted = (async function* () {
      for await (const batch of streamDatasetFile(path)) {
        batches++;
        yield batch;
      }
    })();
    const dataset = await importDatasetBatches(t.db, { name: "good", fileName: "good.jsonl", format: "jsonl" }, counted);
    expect(batches).toBeGreaterThan(1);
    expect(dataset.itemCount).toBe(N);
    expect(dataset.stats.itemCount).toBe(N);
    const items = await parseDatasetFile(path);
    expect(dataset.hash).toBe(await hashDatasetItems(items));
    expect((await getDatasetItems(t.db, dataset.id)).map((item) => item.id)).toEqual(items.map((item) => item.id));
  });

  it.each([
    ["a bad line near the end", (lines: string[]) => lines.splice(N - 3, 1, `{"id": "bad", "question": 1}`), /line 1998/],
    ["an id repeated near the end", (lines: string[]) => lines.splice(N - 2, 1, line(N - 2, "q5")), /duplicate ids: "q5"/],
  ])("stores nothing when the file has %s", async (_, spoil, message) => {
    const lines = Array.from({ length: N }, (_, i) => line(i));
    spoil(lines);
    const path = writeLines("bad.jsonl", lines);
    const before = (await listDatasets(t.db)).length;
    const error = await importDatasetBatches(t.db, { name: "bad", fileName: "bad.jsonl", format: "jsonl" }, streamDatasetFile(path)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetValidationError);
    expect(String((error as Error).message)).toMatch(message);
    expect((await listDatasets(t.db)).length).toBe(before);
    expect(await t.db.datasetItem.count({ where: { dataset: { name: "bad" } } })).toBe(0);
  });
});
