import { computeDatasetStats } from "../datasets/stats";
import { shareEventLoop } from "../datasets/time-slice";
import type { DatasetItem } from "../datasets/types";
import type { Dataset } from "../../generated/prisma/client";
import type { Db } from "./client";
import { insertStatements } from "./insert-rows";

/**
 * Items stored per transaction. Each holds SQLite's write lock (and, the driver being synchronous, the thread) for
 * some 20 ms, so a run going at the same time writes its results between them instead of after the whole import.
 */
const ITEMS_PER_TRANSACTION = 2_000;

const ITEM_COLUMNS = [
  "datasetId", "ordinal", "externalId", "question", "context", "answersJson", "diagnosticTraceContext", "metadataJson",
] as const;

export interface NewDataset {
  name: string;
  fileName: string;
  format: string;
  hash: string;
  fileSha256?: string | null;
  items: readonly DatasetItem[];
}

/**
 * A dataset whose items are still being stored (imports, split parts): its row is marked incomplete, which every
 * lookup ignores, and its items go in in short transactions (sharing the event loop between them), each renewing the
 * heartbeat that tells removeAbandonedDatasetImports the writer is alive. If a step fails the row is deleted again
 * (its items with it); otherwise the caller marks it complete, or deletes it.
 */
export async function storeIncompleteDataset(db: Db, input: NewDataset): Promise<Dataset> {
  const stats = await computeDatasetStats(input.items);
  const dataset = await db.dataset.create({
    data: {
      name: input.name,
      fileName: input.fileName,
      format: input.format,
      hash: input.hash,
      fileSha256: input.fileSha256 ?? null,
      itemCount: input.items.length,
      statsJson: JSON.stringify(stats),
      complete: false,
      importHeartbeatAt: new Date(),
    },
  });
  try {
    await storeItems(db, dataset.id, input.items);
  } catch (error) {
    await db.dataset.delete({ where: { id: dataset.id } }).catch(() => {});
    throw error;
  }
  return dataset;
}

async function storeItems(db: Db, datasetId: number, items: readonly DatasetItem[]): Promise<void> {
  for (let start = 0; start < items.length; start += ITEMS_PER_TRANSACTION) {
    const rows = items.slice(start, start + ITEMS_PER_TRANSACTION).map((item, offset) => ({
      datasetId,
      ordinal: start + offset,
      externalId: item.id,
      question: item.question,
      context: item.context,
      answersJson: JSON.stringify(item.answers),
      diagnosticTraceContext: item.diagnosticTraceContext ?? null,
      metadataJson: item.metadata ? JSON.stringify(item.metadata) : null,
    }));
    await db.$transaction([
      ...insertStatements(db, "DatasetItem", ITEM_COLUMNS, rows),
      db.dataset.update({ where: { id: datasetId }, data: { importHeartbeatAt: new Date() } }),
    ]);
    await shareEventLoop();
  }
}
