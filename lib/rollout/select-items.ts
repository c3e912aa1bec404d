import { getItemOrdinals, type DatasetRecord, type Db, type OrdinalSelection } from "../db";
import { seededRandom } from "../stats/random";
import type { RunSettings } from "../runs/run-config";

type SelectionSettings = Pick<RunSettings, "limit" | "sample" | "itemIds">;

/**
 * The positions (0-based, in dataset order) of the items a run covers: the first `limit`, a seeded random sample, or
 * the listed ids. Decided from the dataset's size alone (and, for listed ids, where they are), so the executor can
 * page the items from the database instead of holding them all. Deterministic, so a resumed run (or a rerun with
 * another skill) covers exactly the same items.
 *
 * `ordinalOf`: where each listed id is in the dataset (needed only with `itemIds`); an id it lacks is refused by name.
 */
export function planItemSelection(datasetSize: number, settings: SelectionSettings, ordinalOf?: ReadonlyMap<string, number>): OrdinalSelection {
  if (settings.itemIds) {
    const wanted = [...new Set(settings.itemIds)];
    const missing = wanted.filter((id) => ordinalOf?.get(id) === undefined);
    if (missing.length > 0) {
      throw new Error(`the dataset has no item with id ${missing.slice(0, 5).map((id) => JSON.stringify(id)).join(", ")}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ""}`);
    }
    return { ordinals: wanted.map((id) => ordinalOf!.get(id)!).sort((a, b) => a - b) };
  }
  if (settings.sample) {
    const random = seededRandom(settings.sample.seed);
    const order = Array.from({ length: datasetSize }, (_, index) => index);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    return { ordinals: order.slice(0, settings.sample.size).sort((a, b) => a - b) };
  }
  return { end: settings.limit === undefined ? datasetSize : Math.min(settings.limit, datasetSize) };
}

export function selectionSize(selection: OrdinalSelection): number {
  return "end" in selection ? selection.end : selection.ordinals.length;
}

/** The selection of a stored dataset: listed ids are looked up in the database, not by reading its items. */
export async function planRunSelection(db: Db, dataset: Pick<DatasetRecord, "id" | "itemCount">, settings: SelectionSettings): Promise<OrdinalSelection> {
  const ordinals = settings.itemIds ? await getItemOrdinals(db, dataset.id, settings.itemIds) : undefined;
  return planItemSelection(dataset.itemCount, settings, ordinals);
}

/** The same selection applied to items already in memory (in dataset order). */
export function selectItems<T extends { id: string }>(items: readonly T[], settings: SelectionSettings): T[] {
  const ordinals = settings.itemIds ? new Map(items.map((item, index) => [item.id, index])) : undefined;
  const selection = planItemSelection(items.length, settings, ordinals);
  return "end" in selection ? items.slice(0, selection.end) : selection.ordinals.map((index) => items[index]!);
}
