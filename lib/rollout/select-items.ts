import { seededRandom } from "../stats/random";
import type { RunSettings } from "../runs/run-config";

/**
 * The items a run covers, in dataset order: the first `limit`, a seeded random sample, or the listed ids.
 * Deterministic, so a resumed run (or a rerun with another skill) covers exactly the same items.
 */
export function selectItems<T extends { id: string }>(items: readonly T[], settings: Pick<RunSettings, "limit" | "sample" | "itemIds">): T[] {
  if (settings.itemIds) {
    const wanted = new Set(settings.itemIds);
    const chosen = items.filter((item) => wanted.has(item.id));
    if (chosen.length !== wanted.size) {
      const known = new Set(chosen.map((item) => item.id));
      const missing = [...wanted].filter((id) => !known.has(id));
      throw new Error(`the dataset has no item with id ${missing.slice(0, 5).map((id) => JSON.stringify(id)).join(", ")}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ""}`);
    }
    return chosen;
  }
  if (settings.sample) {
    const random = seededRandom(settings.sample.seed);
    const order = items.map((_, index) => index);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    return order
      .slice(0, settings.sample.size)
      .sort((a, b) => a - b)
      .map((index) => items[index]!);
  }
  return settings.limit === undefined ? [...items] : items.slice(0, settings.limit);
}
