import type { Db } from "./client";
import { toStoredDatasetItem, type StoredDatasetItem } from "./datasets";
import { IDS_PER_QUERY } from "./result-rows";

/** Items of a dataset by position (0-based ordinal): the first `end`, or exactly these (ascending). */
export type OrdinalSelection = { end: number } | { ordinals: readonly number[] };

/** Where each of these ids is in the dataset (its ordinal); ids the dataset lacks are absent from the map. */
export async function getItemOrdinals(db: Db, datasetId: number, externalIds: readonly string[]): Promise<Map<string, number>> {
  const ordinals = new Map<string, number>();
  const unique = [...new Set(externalIds)];
  for (let start = 0; start < unique.length; start += IDS_PER_QUERY) {
    const rows = await db.datasetItem.findMany({
      where: { datasetId, externalId: { in: unique.slice(start, start + IDS_PER_QUERY) } },
      select: { externalId: true, ordinal: true },
    });
    for (const row of rows) ordinals.set(row.externalId, row.ordinal);
  }
  return ordinals;
}

/**
 * The selected items of a dataset that the run has no result for yet, in dataset order, read a page at a time: a run
 * holds only the page it is working through, whatever the size of the dataset. Results stored while it reads (for items
 * it already handed out) do not change what it reads next.
 *
 * With repeated trials, trial 1 of every item comes first, then trial 2 of every item, and so on: a run stopped early
 * has covered the items evenly, and its first pass is a plain run of the dataset.
 */
export async function* iteratePendingItems(
  db: Db,
  input: { datasetId: number; runId: number; selection: OrdinalSelection; trials?: number; pageSize?: number },
): AsyncGenerator<StoredDatasetItem & { trial: number }> {
  for (let trial = 1; trial <= (input.trials ?? 1); trial++) yield* iteratePendingTrial(db, input, trial);
}

async function* iteratePendingTrial(
  db: Db,
  input: { datasetId: number; runId: number; selection: OrdinalSelection; pageSize?: number },
  trial: number,
): AsyncGenerator<StoredDatasetItem & { trial: number }> {
  const { datasetId, runId, selection } = input;
  const pageSize = Math.min(input.pageSize ?? IDS_PER_QUERY, IDS_PER_QUERY);
  let afterOrdinal = -1;
  for (let start = 0; ; start += pageSize) {
    const where =
      "end" in selection
        ? { datasetId, ordinal: { gt: afterOrdinal, lt: selection.end } }
        : { datasetId, ordinal: { in: selection.ordinals.slice(start, start + pageSize) as number[] } };
    if ("ordinals" in selection && start >= selection.ordinals.length) return;
    const rows = await db.datasetItem.findMany({ where, orderBy: { ordinal: "asc" }, take: pageSize });
    if (rows.length === 0) return;
    afterOrdinal = rows[rows.length - 1]!.ordinal;
    const done = await db.runResult.findMany({ where: { runId, trial, itemId: { in: rows.map((row) => row.externalId) } }, select: { itemId: true } });
    const doneIds = new Set(done.map((row) => row.itemId));
    for (const row of rows) if (!doneIds.has(row.externalId)) yield { ...toStoredDatasetItem(row), trial };
  }
}

/** How many results the run has stored. */
export function countRunResults(db: Db, runId: number): Promise<number> {
  return db.runResult.count({ where: { runId } });
}

/**
 * The items at these ordinals of the dataset that the run has no result for in `trial` yet, in dataset order: a chunk
 * of the queue (run-queue.ts) as a worker takes it, so a chunk delivered again skips what is stored.
 */
export async function loadPendingChunk(
  db: Db,
  input: { datasetId: number; runId: number; trial: number; ordinals: readonly number[] },
): Promise<(StoredDatasetItem & { trial: number })[]> {
  const { datasetId, runId, trial } = input;
  const pending: (StoredDatasetItem & { trial: number })[] = [];
  for (let start = 0; start < input.ordinals.length; start += IDS_PER_QUERY) {
    const rows = await db.datasetItem.findMany({
      where: { datasetId, ordinal: { in: input.ordinals.slice(start, start + IDS_PER_QUERY) as number[] } },
      orderBy: { ordinal: "asc" },
    });
    const done = await db.runResult.findMany({ where: { runId, trial, itemId: { in: rows.map((row) => row.externalId) } }, select: { itemId: true } });
    const doneIds = new Set(done.map((row) => row.itemId));
    for (const row of rows) if (!doneIds.has(row.externalId)) pending.push({ ...toStoredDatasetItem(row), trial });
  }
  return pending;
}
