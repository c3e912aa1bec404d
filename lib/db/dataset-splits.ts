import type { DatasetFormat } from "../datasets/types";
import { hashDatasetItems } from "../datasets/hash";
import { planDatasetSplit, type SplitKey, type SplitRequest } from "../datasets/split-dataset";
import type { DatasetItem } from "../datasets/types";
import { SPLIT_NAMES, type SplitName } from "../optimize/splits";
import type { Dataset, DatasetSplit } from "../../generated/prisma/client";
import type { Db } from "./client";
import { deleteDataset, getDataset, getDatasetItems, removeAbandonedDatasetImports, storeIncompleteDataset, type StoredDatasetItem } from "./datasets";

export interface DatasetSplitPart {
  datasetId: number;
  name: string;
  itemCount: number;
}

export interface DatasetSplitRecord extends SplitKey {
  id: number;
  sourceDatasetId: number;
  sourceName: string;
  parts: Record<SplitName, DatasetSplitPart>;
  createdAt: Date;
}

export interface SplitDatasetResult {
  split: DatasetSplitRecord;
  /** false when the same split of this dataset was stored before (nothing was copied). */
  created: boolean;
  /** For the user (stderr): e.g. that seed 0 was replaced by the training seed. */
  notices: string[];
}

const WITH_DATASETS = { source: true, train: true, val: true, test: true } as const;
type SplitRow = DatasetSplit & Record<"source" | SplitName, Dataset>;

function toRecord(row: SplitRow): DatasetSplitRecord {
  const part = (dataset: Dataset): DatasetSplitPart => ({ datasetId: dataset.id, name: dataset.name, itemCount: dataset.itemCount });
  return {
    id: row.id,
    sourceDatasetId: row.sourceDatasetId,
    sourceName: row.source.name,
    mode: row.mode as SplitKey["mode"],
    ratio: row.ratio,
    seed: row.seed,
    manifestSha256: row.manifestSha256,
    parts: { train: part(row.train), val: part(row.val), test: part(row.test) },
    createdAt: row.createdAt,
  };
}

/**
 * Splits a stored dataset into train / val / test datasets (see lib/datasets/split-dataset.ts), or finds the same
 * split stored before. Each part is an ordinary dataset, `<source name> · train`, holding copies of the source's
 * items with ordinals 0..n-1 in the order upstream leaves them. All or nothing: the parts are stored like a large
 * import (hidden while incomplete, deleted on failure, cleaned up if the process dies) and become visible, with the
 * split row, in one last transaction. Bad input (a ratio, a manifest id) throws before anything is written.
 */
export async function splitDataset(db: Db, sourceDatasetId: number, request: SplitRequest): Promise<SplitDatasetResult> {
  const source = await getDataset(db, sourceDatasetId);
  const items = await getDatasetItems(db, source.id);
  const plan = planDatasetSplit(items.map((item) => item.id), request);
  const existing = await findDatasetSplit(db, source.id, plan.key);
  if (existing) return { split: existing, created: false, notices: plan.notices };

  await removeAbandonedDatasetImports(db);
  const byId = new Map(items.map((stored) => [stored.id, withoutRowId(stored)]));
  const stored: number[] = [];
  try {
    for (const name of SPLIT_NAMES) {
      const partItems = plan.ids[name].map((id) => byId.get(id)!);
      const dataset = await storeIncompleteDataset(db, {
        name: `${source.name} · ${name}`,
        fileName: source.fileName,
        format: source.format as DatasetFormat,
        hash: await hashDatasetItems(partItems),
        // not a file's bytes: a part was never uploaded
        fileSha256: null,
      }, [partItems]);
      stored.push(dataset.id);
    }
    const [trainDatasetId, valDatasetId, testDatasetId] = stored as [number, number, number];
    const outcome = await db.$transaction(async (tx) => {
      // Checked again under the write lock: another process may have stored the same split meanwhile.
      const raced = await tx.datasetSplit.findFirst({ where: { sourceDatasetId: source.id, ...plan.key }, orderBy: { id: "asc" }, include: WITH_DATASETS });
      if (raced) return { row: raced, created: false };
      await tx.dataset.updateMany({ where: { id: { in: stored } }, data: { complete: true, importHeartbeatAt: null } });
      const row = await tx.datasetSplit.create({
        data: { sourceDatasetId: source.id, ...plan.key, trainDatasetId, valDatasetId, testDatasetId },
        include: WITH_DATASETS,
      });
      return { row, created: true };
    });
    if (!outcome.created) await deleteParts(db, stored);
    return { split: toRecord(outcome.row), created: outcome.created, notices: plan.notices };
  } catch (error) {
    await deleteParts(db, stored);
    throw error;
  }
}

/** The item as a dataset file has it: the row id is the source's, and would change the part's hash. */
function withoutRowId(stored: StoredDatasetItem): DatasetItem {
  const item: Partial<StoredDatasetItem> = { ...stored };
  delete item.datasetItemId;
  return item as DatasetItem;
}

async function deleteParts(db: Db, datasetIds: readonly number[]): Promise<void> {
  for (const id of datasetIds) await deleteDataset(db, id).catch(() => {});
}

/** The split of this dataset with this key (mode, ratio, seed, manifest hash), if one is stored. */
export async function findDatasetSplit(db: Db, sourceDatasetId: number, key: SplitKey): Promise<DatasetSplitRecord | null> {
  const row = await db.datasetSplit.findFirst({ where: { sourceDatasetId, ...key }, orderBy: { id: "asc" }, include: WITH_DATASETS });
  return row ? toRecord(row) : null;
}

/** Whether a dataset is the train, val or test part of a split, and of which (the optimisation loop asks this). */
export async function getDatasetSplitByPart(db: Db, datasetId: number): Promise<{ split: DatasetSplitRecord; part: SplitName } | null> {
  const row = await db.datasetSplit.findFirst({
    where: { OR: [{ trainDatasetId: datasetId }, { valDatasetId: datasetId }, { testDatasetId: datasetId }] },
    include: WITH_DATASETS,
  });
  if (!row) return null;
  const part = SPLIT_NAMES.find((name) => row[name].id === datasetId)!;
  return { split: toRecord(row), part };
}

/** The splits made of a dataset, oldest first. */
export async function listDatasetSplitsOf(db: Db, sourceDatasetId: number): Promise<DatasetSplitRecord[]> {
  const rows = await db.datasetSplit.findMany({ where: { sourceDatasetId }, orderBy: { id: "asc" }, include: WITH_DATASETS });
  return rows.map(toRecord);
}

/** Every dataset that is a split part: its id → which part of which split (for listings). */
export async function listSplitParts(db: Db): Promise<Map<number, { splitId: number; sourceDatasetId: number; part: SplitName }>> {
  const rows = await db.datasetSplit.findMany({ select: { id: true, sourceDatasetId: true, trainDatasetId: true, valDatasetId: true, testDatasetId: true } });
  const parts = new Map<number, { splitId: number; sourceDatasetId: number; part: SplitName }>();
  for (const row of rows) {
    parts.set(row.trainDatasetId, { splitId: row.id, sourceDatasetId: row.sourceDatasetId, part: "train" });
    parts.set(row.valDatasetId, { splitId: row.id, sourceDatasetId: row.sourceDatasetId, part: "val" });
    parts.set(row.testDatasetId, { splitId: row.id, sourceDatasetId: row.sourceDatasetId, part: "test" });
  }
  return parts;
}
