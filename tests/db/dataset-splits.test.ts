// Storing a dataset's split: each part an ordinary, complete dataset with upstream's items in upstream's order;
// the same split asked for again is found, not copied; a failure at any step leaves nothing behind.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DatasetValidationError } from "@/lib/datasets/errors";
import { readSplitManifest } from "@/lib/datasets/split-manifest";
import {
  getDataset, getDatasetItems, getDatasetSplitByPart, importDataset, listDatasets, listDatasetSplitsOf, listSplitParts, NotFoundError, splitDataset,
} from "@/lib/db";
import type { SplitIds } from "@/lib/optimize/splits";
import { goldenSection } from "../optimize/golden";
import { makeItems } from "../support/rollout-fixtures";
import { failInserts } from "../support/db-faults";
import { createTestDb, TEST_ENGINE, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(async () => {
  await t.close();
});

interface RatioGolden { ids: number; ratio: string; split_seed: number; seed: number; limit: number; split: SplitIds }
const upstream = (total: number, ratio: string, splitSeed: number) =>
  goldenSection<{ ratio_splits: RatioGolden[] }>("splits").ratio_splits.find(
    (c) => c.ids === total && c.ratio === ratio && c.split_seed === splitSeed && c.seed === 42 && c.limit === 0,
  )!.split;

// makeItems ids are q0000…, the ids record_core.py gave the upstream loader
const source = () => importDataset(t.db, { name: "clues", fileName: "clues.jsonl", format: "jsonl", hash: "h-clues", items: makeItems(123) });
const ratio = (id: number, text = "2:1:7", seed = 42) => splitDataset(t.db, id, { mode: "ratio", ratio: text, seed });
const counts = async () => ({ datasets: await t.db.dataset.count(), items: await t.db.datasetItem.count(), splits: await t.db.datasetSplit.count() });

describe("splitDataset", () => {
  it("stores each part as a complete dataset holding the source's items in upstream's order", async () => {
    const dataset = await source();
    const { split, created } = await ratio(dataset.id);
    expect(created).toBe(true);
    expect(split).toMatchObject({ sourceDatasetId: dataset.id, sourceName: "clues", mode: "ratio", ratio: "2:1:7", seed: 42, manifestSha256: null });
    const expected = upstream(123, "2:1:7", 42);
    const byId = new Map(makeItems(123).map((item) => [item.id, item]));
    for (const name of ["train", "val", "test"] as const) {
      const part = await getDataset(t.db, split.parts[name].datasetId);
      expect(part).toMatchObject({ name: `clues · ${name}`, itemCount: expected[name].length, fileName: "clues.jsonl", fileSha256: null });
      const items = await getDatasetItems(t.db, part.id);
      expect(items).toEqual(expected[name].map((id) => ({ ...byId.get(id), datasetItemId: expect.any(Number) })));
      const ordinals = await t.db.datasetItem.findMany({ where: { datasetId: part.id }, orderBy: { ordinal: "asc" }, select: { ordinal: true } });
      expect(ordinals.map((row) => row.ordinal)).toEqual(expected[name].map((_, i) => i));
      expect(await getDatasetSplitByPart(t.db, part.id)).toEqual({ split, part: name });
    }
    expect((await listDatasets(t.db)).map((d) => d.name)).toEqual(["clues", "clues · train", "clues · val", "clues · test"]);
    expect(await getDatasetSplitByPart(t.db, dataset.id)).toBeNull();
    expect(await listDatasetSplitsOf(t.db, dataset.id)).toEqual([split]);
    expect([...(await listSplitParts(t.db)).entries()]).toEqual([
      [split.parts.train.datasetId, { splitId: split.id, sourceDatasetId: dataset.id, part: "train" }],
      [split.parts.val.datasetId, { splitId: split.id, sourceDatasetId: dataset.id, part: "val" }],
      [split.parts.test.datasetId, { splitId: split.id, sourceDatasetId: dataset.id, part: "test" }],
    ]);
  });

  it("returns the split stored before for the same ratio and seed, however written, and copies nothing again", async () => {
    const dataset = await source();
    const first = await ratio(dataset.id);
    const before = await counts();
    for (const [text, seed] of [["2:1:7", 42], [" 2 : 1 : 7 ", 42], ["2:1:7", 0]] as const) {
      const again = await ratio(dataset.id, text, seed);
      expect(again.created).toBe(false);
      expect(again.split).toEqual(first.split);
    }
    expect(await counts()).toEqual(before);
    const other = await ratio(dataset.id, "2:1:7", 7);
    expect(other.created).toBe(true);
    const expected = upstream(123, "2:1:7", 7);
    expect((await getDatasetItems(t.db, other.split.parts.val.datasetId)).map((item) => item.id)).toEqual(expected.val);
    expect((await listDatasetSplitsOf(t.db, dataset.id)).map((split) => split.seed)).toEqual([42, 7]);
  });

  it("stores a manifest's parts in the files' order and finds them again for the same ids", async () => {
    const dataset = await source();
    const dir = join(t.dir, "manifest");
    const writePart = (name: string, ids: string[], indent?: number) => {
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, "items.json"), JSON.stringify(ids.map((id) => ({ id })), null, indent));
    };
    const write = (indent?: number) => {
      writePart("train", ["q0100", "q0003", "q0050"], indent);
      writePart("val", ["q0007"], indent);
      writePart("test", ["q0001", "q0000"], indent);
    };
    write();
    const first = await splitDataset(t.db, dataset.id, { mode: "manifest", manifest: readSplitManifest(dir) });
    expect(first.split).toMatchObject({ mode: "manifest", ratio: null, seed: null, manifestSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await getDatasetItems(t.db, first.split.parts.train.datasetId)).map((item) => item.id)).toEqual(["q0100", "q0003", "q0050"]);
    expect((await getDatasetItems(t.db, first.split.parts.test.datasetId)).map((item) => item.id)).toEqual(["q0001", "q0000"]);
    write(2);
    const again = await splitDataset(t.db, dataset.id, { mode: "manifest", manifest: readSplitManifest(dir) });
    expect(again).toMatchObject({ created: false, split: first.split });
  });

  it("stores nothing when the manifest names an item the dataset does not have", async () => {
    const dataset = await source();
    const dir = join(t.dir, "manifest");
    for (const [name, id] of [["train", "q0001"], ["val", "nope"], ["test", "q0002"]]) {
      mkdirSync(join(dir, name!), { recursive: true });
      writeFileSync(join(dir, name!, "items.json"), JSON.stringify([{ id }]));
    }
    const before = await counts();
    await expect(splitDataset(t.db, dataset.id, { mode: "manifest", manifest: readSplitManifest(dir) })).rejects.toThrow(
      new DatasetValidationError(join(dir, "val", "items.json"), [{ item: 1, line: 1, field: "id", message: '"nope" is not an item of the dataset' }]),
    );
    expect(await counts()).toEqual(before);
  });

  it("leaves nothing behind when storing a part's items fails, or the last step does", async () => {
    const dataset = await source();
    const before = await counts();
    const test = upstream(123, "2:1:7", 42).test;
    // The real database refusing a write partway: an item of the last part, after two parts and part of the third are in.
    const failItem = await failInserts(t.db, {
      name: "fail_item", table: "DatasetItem", when: `NEW."datasetId" <> ${dataset.id} AND NEW."externalId" = '${test.at(-1)}'`, message: "disk full",
    });
    await expect(ratio(dataset.id)).rejects.toThrow("disk full");
    expect(await counts()).toEqual(before);
    await failItem();

    const failSplit = await failInserts(t.db, { name: "fail_split", table: "DatasetSplit", message: "disk full" });
    // (Prisma words SQLite's abort as a foreign key violation; PostgreSQL's error passes on as raised)
    await expect(ratio(dataset.id)).rejects.toThrow(TEST_ENGINE === "sqlite" ? "datasetSplit.create" : "disk full");
    expect(await counts()).toEqual(before);
    expect((await listDatasets(t.db)).map((d) => d.id)).toEqual([dataset.id]);
    await failSplit();

    expect((await ratio(dataset.id)).created).toBe(true);
  });

  it("refuses an unknown dataset, and a ratio that leaves a part empty, storing nothing", async () => {
    await expect(ratio(42)).rejects.toThrow(NotFoundError);
    const small = await importDataset(t.db, { name: "small", fileName: "s.jsonl", format: "jsonl", hash: "h-small", items: makeItems(5) });
    await expect(ratio(small.id)).rejects.toThrow("ratio 2:1:7, seed 42 leaves the val part empty (5 items)");
    expect(await counts()).toEqual({ datasets: 1, items: 5, splits: 0 });
  });
});
