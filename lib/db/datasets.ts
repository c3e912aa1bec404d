import { computeDatasetStats, type DatasetStats } from "../datasets/stats";
import type { DatasetFormat, DatasetItem } from "../datasets/types";
import type { Dataset, DatasetItem as DatasetItemRow } from "../../generated/prisma/client";
import type { Db } from "./client";
import { NotFoundError } from "./errors";

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

function toRecord({ statsJson, ...row }: Dataset): DatasetRecord {
  return { ...row, stats: JSON.parse(statsJson) as DatasetStats };
}

export interface StoredDatasetItem extends DatasetItem {
  datasetItemId: number;
}

// SQLite limits bound variables per statement; 500 rows × 8 columns stays well inside it.
const INSERT_CHUNK = 500;

/** Stores a validated dataset and its items in one transaction: all of it or nothing. */
export async function importDataset(
  db: Db,
  input: { name: string; fileName: string; format: DatasetFormat; hash: string; fileSha256?: string | null; items: readonly DatasetItem[] },
): Promise<DatasetRecord> {
  return db.$transaction(
    async (tx) => {
      const dataset = await tx.dataset.create({
        data: {
          name: input.name,
          fileName: input.fileName,
          format: input.format,
          hash: input.hash,
          fileSha256: input.fileSha256 ?? null,
          itemCount: input.items.length,
          statsJson: JSON.stringify(computeDatasetStats(input.items)),
        },
      });
      for (let start = 0; start < input.items.length; start += INSERT_CHUNK) {
        await tx.datasetItem.createMany({
          data: input.items.slice(start, start + INSERT_CHUNK).map((item, offset) => ({
            datasetId: dataset.id,
            ordinal: start + offset,
            externalId: item.id,
            question: item.question,
            context: item.context,
            answersJson: JSON.stringify(item.answers),
            diagnosticTraceContext: item.diagnosticTraceContext ?? null,
            metadataJson: item.metadata ? JSON.stringify(item.metadata) : null,
          })),
        });
      }
      return toRecord(dataset);
    },
    { timeout: 600_000 },
  );
}

/** Removes a dataset and its items (an import that could not be finished); refused while runs use it. */
export async function deleteDataset(db: Db, id: number): Promise<void> {
  await db.dataset.delete({ where: { id } });
}

/** An earlier import of exactly the same items, if any. */
export async function findDatasetByHash(db: Db, hash: string): Promise<DatasetRecord | null> {
  const row = await db.dataset.findFirst({ where: { hash }, orderBy: { id: "asc" } });
  return row ? toRecord(row) : null;
}

export async function getDataset(db: Db, id: number): Promise<DatasetRecord> {
  const row = await db.dataset.findUnique({ where: { id } });
  if (!row) throw new NotFoundError("dataset", id);
  return toRecord(row);
}

export async function listDatasets(db: Db): Promise<DatasetRecord[]> {
  return (await db.dataset.findMany({ orderBy: { id: "asc" } })).map(toRecord);
}

/** All items of a dataset in file order. */
export async function getDatasetItems(db: Db, datasetId: number): Promise<StoredDatasetItem[]> {
  const rows = await db.datasetItem.findMany({ where: { datasetId }, orderBy: { ordinal: "asc" } });
  return rows.map(toItem);
}

/** One page of a dataset's items in file order, for previews. */
export async function listDatasetItemsPage(
  db: Db,
  datasetId: number,
  page: { offset: number; limit: number },
): Promise<StoredDatasetItem[]> {
  const rows = await db.datasetItem.findMany({ where: { datasetId }, orderBy: { ordinal: "asc" }, skip: page.offset, take: page.limit });
  return rows.map(toItem);
}

/** A dataset's items in file order, a page at a time (keyset on the ordinal), for downloads of any size. */
export async function* iterateDatasetItemPages(db: Db, datasetId: number, pageSize = 1000): AsyncGenerator<StoredDatasetItem[]> {
  let afterOrdinal = -1;
  for (;;) {
    const rows = await db.datasetItem.findMany({ where: { datasetId, ordinal: { gt: afterOrdinal } }, orderBy: { ordinal: "asc" }, take: pageSize });
    if (rows.length > 0) yield rows.map(toItem);
    const last = rows[rows.length - 1];
    if (!last || rows.length < pageSize) return;
    afterOrdinal = last.ordinal;
  }
}

function toItem(row: DatasetItemRow): StoredDatasetItem {
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
