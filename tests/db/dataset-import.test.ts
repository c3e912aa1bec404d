// A large dataset is stored in short transactions, invisible until its last item is in, and removed again if the
// import fails or its process dies: a run going at the same time keeps writing, and the server keeps answering.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  addSkillVersion, findDatasetByHash, getDataset, getDatasetItems, importDataset, listDatasets, NotFoundError, removeAbandonedDatasetImports,
} from "@/lib/db";
import { makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";
import { measureLongestStall } from "../support/event-loop";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(async () => {
  await t.close();
});

const longestStall = async (work: () => Promise<unknown>) => (await measureLongestStall(work)).longestStallMs;

const input = (items = makeItems(30_000)) => ({ name: "large", fileName: "large.jsonl", format: "jsonl" as const, hash: "h-large", items });

describe("importDataset", () => {
  it("lets other writes through while it stores, and shows the dataset only once every item is in", async () => {
    const seenDuringImport: number[] = [];
    let importDone = false;
    let writeDoneDuringImport = false;
    const importing = importDataset(t.db, input()).then((dataset) => {
      importDone = true;
      return dataset;
    });
    // What a run does meanwhile: small write transactions, and pages listing datasets.
    while (!importDone) {
      await addSkillVersion(t.db, { name: "meanwhile", content: `text ${seenDuringImport.length}` });
      if (!importDone) writeDoneDuringImport = true;
      seenDuringImport.push((await listDatasets(t.db)).length);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const dataset = await importing;
    expect(writeDoneDuringImport).toBe(true);
    expect(seenDuringImport.slice(0, -1).every((count) => count === 0)).toBe(true);
    expect(await listDatasets(t.db)).toEqual([expect.objectContaining({ id: dataset.id, itemCount: 30_000 })]);
    expect((await getDatasetItems(t.db, dataset.id)).map((item) => item.id)).toEqual(input().items.map((item) => item.id));
  });

  it("never holds the event loop for long", async () => {
    const stall = await longestStall(() => importDataset(t.db, input()));
    expect(stall).toBeLessThan(250);
  });

  it("removes what it stored when a later transaction fails, so nothing is left", async () => {
    const items = makeItems(9_000);
    items.push({ ...items[0]! }); // a repeated id: the last transaction fails on the unique index
    await expect(importDataset(t.db, input(items))).rejects.toThrow();
    expect(await listDatasets(t.db)).toEqual([]);
    expect(await t.db.dataset.count()).toBe(0);
    expect(await t.db.datasetItem.count()).toBe(0);
  });

  it("hides an unfinished import from every lookup, and removes it once its process has been silent for long", async () => {
    const stale = await t.db.dataset.create({
      data: { name: "dead", fileName: "d.jsonl", format: "jsonl", hash: "h-dead", itemCount: 1, complete: false, importHeartbeatAt: new Date(Date.now() - 3_600_000) },
    });
    const live = await t.db.dataset.create({
      data: { name: "live", fileName: "l.jsonl", format: "jsonl", hash: "h-live", itemCount: 1, complete: false, importHeartbeatAt: new Date() },
    });
    expect(await listDatasets(t.db)).toEqual([]);
    await expect(getDataset(t.db, stale.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await findDatasetByHash(t.db, "h-dead")).toBeNull();
    expect(await removeAbandonedDatasetImports(t.db)).toBe(1);
    expect((await t.db.dataset.findMany()).map((row) => row.id)).toEqual([live.id]);
  });
});
