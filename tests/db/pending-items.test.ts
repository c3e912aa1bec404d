// The executor reads a run's items a page at a time from the database: the items it reads must be exactly those the
// in-memory selection picks (first N, seeded sample, listed ids), in dataset order, minus those with a stored result.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addSkillVersion, getDataset, importDataset, iteratePendingItems, ResultWriter, type DatasetRecord } from "@/lib/db";
import { createRunFor } from "@/lib/rollout";
import { planRunSelection, selectItems } from "@/lib/rollout/select-items";
import { RunSettingsSchema, type RunSettings } from "@/lib/runs";
import { makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";
import { timeoutResult } from "@/lib/rollout/batch-rows";

const items = makeItems(37);
let t: TestDatabase;
let dataset: DatasetRecord;

beforeAll(async () => {
  t = createTestDb();
  dataset = await importDataset(t.db, { name: "d", fileName: "d.jsonl", format: "jsonl", hash: "h", items });
});
afterAll(() => t.close());

async function readAll(runId: number, settings: Partial<RunSettings>, pageSize: number): Promise<string[]> {
  const selection = await planRunSelection(t.db, await getDataset(t.db, dataset.id), settings);
  const ids: string[] = [];
  for await (const item of iteratePendingItems(t.db, { datasetId: dataset.id, runId, selection, pageSize })) ids.push(item.id);
  return ids;
}

const SELECTIONS: [string, Partial<RunSettings>][] = [
  ["all", {}],
  ["the first 11", { limit: 11 }],
  ["a limit past the end", { limit: 500 }],
  ["a seeded sample", { sample: { size: 13, seed: 5 } }],
  ["listed ids", { itemIds: ["q0030", "q0002", "q0017", "q0002", "q0036"] }],
];

describe("iteratePendingItems", () => {
  it.each(SELECTIONS)("reads %s in pages, in dataset order, as selectItems picks them", async (_, settings) => {
    const expected = selectItems(items, settings).map((item) => item.id);
    for (const pageSize of [1, 4, 500]) expect(await readAll(0, settings, pageSize)).toEqual(expected);
  });

  it("leaves out the items the run already has a result for", async () => {
    const { version } = await addSkillVersion(t.db, { name: "s", content: "skill" });
    const run = await createRunFor(t.db, {
      datasetId: dataset.id,
      skillVersionId: version.id,
      config: { model: { backend: "baseline" }, settings: RunSettingsSchema.parse({ sample: { size: 20, seed: 1 } }) },
    });
    expect(run.itemsTotal).toBe(20);
    const chosen = selectItems(items, { sample: { size: 20, seed: 1 } });
    const storedItems = await t.db.datasetItem.findMany({ where: { datasetId: dataset.id } });
    const rowId = new Map(storedItems.map((row) => [row.externalId, row.id]));
    const writer = new ResultWriter(t.db, run.id);
    const done = chosen.filter((_, index) => index % 3 === 0);
    for (const item of done) writer.push(timeoutResult({ ...item, datasetItemId: rowId.get(item.id)! }, new Date(), 1));
    await writer.flush();
    const doneIds = new Set(done.map((item) => item.id));
    expect(await readAll(run.id, { sample: { size: 20, seed: 1 } }, 3)).toEqual(chosen.map((item) => item.id).filter((id) => !doneIds.has(id)));
  });

  it("leaves out the items with a result when reading the first N, whatever the page size", async () => {
    const { version } = await addSkillVersion(t.db, { name: "s3", content: "skill 3" });
    const settings = { limit: 30 };
    const run = await createRunFor(t.db, {
      datasetId: dataset.id,
      skillVersionId: version.id,
      config: { model: { backend: "baseline" }, settings: RunSettingsSchema.parse(settings) },
    });
    const storedItems = await t.db.datasetItem.findMany({ where: { datasetId: dataset.id } });
    const rowId = new Map(storedItems.map((row) => [row.externalId, row.id]));
    const writer = new ResultWriter(t.db, run.id);
    // A run of done items longer than a page, then scattered ones, and the last item of the selection.
    const done = items.slice(0, 30).filter((_, index) => index < 9 || index % 5 === 0 || index === 29);
    for (const item of done) writer.push(timeoutResult({ ...item, datasetItemId: rowId.get(item.id)! }, new Date(), 1));
    await writer.flush();
    const doneIds = new Set(done.map((item) => item.id));
    const expected = items.slice(0, 30).map((item) => item.id).filter((id) => !doneIds.has(id));
    for (const pageSize of [1, 4, 500]) expect(await readAll(run.id, settings, pageSize)).toEqual(expected);
    // Another run of the same dataset has none of them.
    expect(await readAll(0, settings, 4)).toEqual(items.slice(0, 30).map((item) => item.id));
  });

  it("refuses listed ids the dataset lacks, naming them, when the run is created", async () => {
    const { version } = await addSkillVersion(t.db, { name: "s2", content: "skill 2" });
    await expect(
      createRunFor(t.db, {
        datasetId: dataset.id,
        skillVersionId: version.id,
        config: { model: { backend: "baseline" }, settings: RunSettingsSchema.parse({ itemIds: ["q0001", "nope"] }) },
      }),
    ).rejects.toThrow(/no item with id "nope"/);
  });
});
