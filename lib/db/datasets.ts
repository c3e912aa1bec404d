import { DatasetItemsHasher } from "../datasets/hash";
import { DatasetStatsAccumulator, type DatasetStats } from "../datasets/stats";
import { shareEventLoop } from "../datasets/time-slice";
import type { DatasetFormat, DatasetItem } from "../datasets/types";
import type { Dataset, DatasetItem as DatasetItemRow } from "../../generated/prisma/client";
import type { Db } from "./client";
import { NotFoundError } from "./errors";
import { bulkTransaction } from "./bulk-write";
import { sqliteDateTime } from "./sqlite-transaction";

export interface DatasetRecord {
  id: number;
  name: string;
  fileName: string;
  format: string;
  /** sha256 of the canonical items (see lib/datasets/hash.ts): the same data in any format has the same one. */
  hash: string;
  /** sha256 of the file's bytes, as `sha256sum` prints it; null when it was not recorded. */
  fileSha256: string | null;
  itemCount: number;
  createdAt: Date;
  stats: DatasetStats;
}

function toRecord(row: Dataset): DatasetRecord {
  const { id, name, fileName, format, hash, fileSha256, itemCount, createdAt } = row;
  return { id, name, fileName, format, hash, fileSha256, itemCount, createdAt, stats: JSON.parse(row.statsJson) as DatasetStats };
}

export interface StoredDatasetItem extends DatasetItem {
  datasetItemId: number;
}

/**
 * Items stored per transaction. Each holds SQLite's write lock (and, the driver being synchronous, the thread) for
 * some 20 ms, so a run going at the same time writes its results between them instead of after the whole import.
 */
const ITEMS_PER_TRANSACTION = 2_000;

/** An unfinished import that has not written for this long died with its process. */
const ABANDONED_AFTER_MS = 10 * 60_000;

/** Only finished imports exist for the rest of the application. */
const COMPLETE = { complete: true } as const;

// Written by bulkTransaction (a prepared row insert per item on SQLite): through Prisma, a 600,000-item file took a minute.
const ITEM_COLUMNS = ["datasetId", "ordinal", "externalId", "question", "context", "answersJson", "diagnosticTraceContext", "metadataJson"];

export interface DatasetImportInput {
  name: string;
  fileName: string;
  format: DatasetFormat;
  /** The items' hash when the caller has it; otherwise computed as the items go in (lib/datasets/hash.ts). */
  hash?: string;
  fileSha256?: string | null;
}

/**
 * Stores a validated dataset and its items: all of it or nothing. The items go in in short transactions (sharing
 * the event loop between them) under a dataset row marked incomplete, which every lookup ignores; the last step marks
 * it complete. If any step fails the dataset is deleted again; if the process dies, removeAbandonedDatasetImports
 * deletes it later.
 */
export function importDataset(db: Db, input: DatasetImportInput & { hash: string; items: readonly DatasetItem[] }): Promise<DatasetRecord> {
  return importDatasetBatches(db, input, [input.items]);
}

/**
 * importDataset for items that arrive in batches as a file is read (streamDatasetFile): each batch is stored as it
 * comes and then dropped, so an import holds one batch, not the file. Statistics and the hash are gathered on the way;
 * if the source throws (a problem found later in the file), what was stored is deleted and the error passed on.
 */
export async function importDatasetBatches(
  db: Db,
  input: DatasetImportInput,
  batches: Iterable<readonly DatasetItem[]> | AsyncIterable<readonly DatasetItem[]>,
): Promise<DatasetRecord> {
  await removeAbandonedDatasetImports(db);
  const dataset = await storeIncompleteDataset(db, input, batches);
  try {
    return toRecord(await db.dataset.update({ where: { id: dataset.id }, data: { complete: true, importHeartbeatAt: null } }));
  } catch (error) {
    await deleteDataset(db, dataset.id).catch(() => {});
    throw error;
  }
}

/**
 * A dataset whose items are still being stored (imports, split parts): its row is marked incomplete, which every
 * lookup ignores, and its items go in in short transactions (sharing the event loop between them), each renewing the
 * heartbeat that tells removeAbandonedDatasetImports the writer is alive. Statistics and the hash are gathered on the
 * way. If a step fails the row is deleted again (its items with it); otherwise the caller marks it complete.
 */
export async function storeIncompleteDataset(
  db: Db,
  input: DatasetImportInput,
  batches: Iterable<readonly DatasetItem[]> | AsyncIterable<readonly DatasetItem[]>,
): Promise<Dataset> {
  const dataset = await db.dataset.create({
    data: {
      name: input.name, fileName: input.fileName, format: input.format, hash: input.hash ?? "", fileSha256: input.fileSha256 ?? null,
      itemCount: 0, statsJson: "{}", complete: false, importHeartbeatAt: new Date(),
    },
  });
  const stats = new DatasetStatsAccumulator();
  const hasher = input.hash === undefined ? new DatasetItemsHasher() : undefined;
  let ordinal = 0;
  try {
    for await (const batch of batches) {
      for (let start = 0; start < batch.length; start += ITEMS_PER_TRANSACTION) {
        const chunk = batch.slice(start, start + ITEMS_PER_TRANSACTION);
        const rows = chunk.map((item) => [
          dataset.id, ordinal++, item.id, item.question, item.context, JSON.stringify(item.answers),
          item.diagnosticTraceContext ?? null, item.metadata ? JSON.stringify(item.metadata) : null,
        ]);
        for (const item of chunk) {
          stats.add(item);
          hasher?.add(item);
        }
        await bulkTransaction(db, (write) => {
          write.insert("DatasetItem", ITEM_COLUMNS, rows);
          write.run(`UPDATE "Dataset" SET "importHeartbeatAt" = ? WHERE "id" = ?`, [sqliteDateTime(new Date()), dataset.id]);
        });
        await shareEventLoop();
      }
    }
    const statsJson = JSON.stringify(stats.result());
    return await db.dataset.update({ where: { id: dataset.id }, data: { itemCount: ordinal, statsJson, hash: input.hash ?? hasher!.digest() } });
  } catch (error) {
    await deleteDataset(db, dataset.id).catch(() => {});
    throw error;
  }
}

/**
 * Deletes unfinished imports whose process stopped writing long ago (killed mid-import). Called before each import
 * and when the server starts; returns how many there were.
 */
export async function removeAbandonedDatasetImports(db: Db): Promise<number> {
  const { count } = await db.dataset.deleteMany({
    where: { complete: false, OR: [{ importHeartbeatAt: null }, { importHeartbeatAt: { lt: new Date(Date.now() - ABANDONED_AFTER_MS) } }] },
  });
  return count;
}

/** Removes a dataset and its items (an import that could not be finished); refused while runs use it. */
export async function deleteDataset(db: Db, id: number): Promise<void> {
  await db.dataset.delete({ where: { id } });
}

/** An earlier import of the same file bytes read as the same format (so of the same items), if any. */
export async function findDatasetByFile(db: Db, fileSha256: string, format: DatasetFormat): Promise<DatasetRecord | null> {
  const row = await db.dataset.findFirst({ where: { fileSha256, format, ...COMPLETE }, orderBy: { id: "asc" } });
  return row ? toRecord(row) : null;
}

/** An earlier import of exactly the same items, if any. */
export async function findDatasetByHash(db: Db, hash: string): Promise<DatasetRecord | null> {
  const row = await db.dataset.findFirst({ where: { hash, ...COMPLETE }, orderBy: { id: "asc" } });
  return row ? toRecord(row) : null;
}

export async function getDataset(db: Db, id: number): Promise<DatasetRecord> {
  const row = await db.dataset.findUnique({ where: { id } });
  if (!row?.complete) throw new NotFoundError("dataset", id);
  return toRecord(row);
}

export async function listDatasets(db: Db): Promise<DatasetRecord[]> {
  return (await db.dataset.findMany({ where: COMPLETE, orderBy: { id: "asc" } })).map(toRecord);
}

/** All items of a dataset in file order. */
export async function getDatasetItems(db: Db, datasetId: number): Promise<StoredDatasetItem[]> {
  const rows = await db.datasetItem.findMany({ where: { datasetId }, orderBy: { ordinal: "asc" } });
  return rows.map(toStoredDatasetItem);
}

/** External id → row id of every item of a dataset, read a page at a time (a results import matches its rows by these). */
export async function getDatasetItemRowIds(db: Db, datasetId: number, pageSize = 5_000): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  let afterOrdinal = -1;
  for (;;) {
    const rows = await db.datasetItem.findMany({
      where: { datasetId, ordinal: { gt: afterOrdinal } }, orderBy: { ordinal: "asc" }, take: pageSize, select: { id: true, externalId: true, ordinal: true },
    });
    for (const row of rows) ids.set(row.externalId, row.id);
    const last = rows[rows.length - 1];
    if (!last || rows.length < pageSize) return ids;
    afterOrdinal = last.ordinal;
    await shareEventLoop();
  }
}

/** One page of a dataset's items in file order, for previews. */
export async function listDatasetItemsPage(
  db: Db,
  datasetId: number,
  page: { offset: number; limit: number },
): Promise<StoredDatasetItem[]> {
  const rows = await db.datasetItem.findMany({ where: { datasetId }, orderBy: { ordinal: "asc" }, skip: page.offset, take: page.limit });
  return rows.map(toStoredDatasetItem);
}

/** A dataset's items in file order, a page at a time (keyset on the ordinal), for downloads of any size. */
export async function* iterateDatasetItemPages(db: Db, datasetId: number, pageSize = 1000): AsyncGenerator<StoredDatasetItem[]> {
  let afterOrdinal = -1;
  for (;;) {
    const rows = await db.datasetItem.findMany({ where: { datasetId, ordinal: { gt: afterOrdinal } }, orderBy: { ordinal: "asc" }, take: pageSize });
    if (rows.length > 0) yield rows.map(toStoredDatasetItem);
    const last = rows[rows.length - 1];
    if (!last || rows.length < pageSize) return;
    afterOrdinal = last.ordinal;
  }
}

export function toStoredDatasetItem(row: DatasetItemRow): StoredDatasetItem {
  return {
    datasetItemId: row.id,
    id: row.externalId,
    question: row.question,
    context: row.context,
    answers: JSON.parse(row.answersJson) as string[],
    ...(row.diagnosticTraceContext !== null ? { diagnosticTraceContext: row.diagnosticTraceContext } : {}),
    ...(row.metadataJson !== null ? { metadata: JSON.parse(row.metadataJson) as Record<string, unknown> } : {}),
  };
}
