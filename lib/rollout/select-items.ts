import { seededRandom } from "../stats/random";
import type { RunSettings } from "../runs/run-config";

/**
 * The items a run covers, in dataset order: the first `limit`, or a seeded random sample.
 * Deterministic, so a resumed run (or a rerun with another skill) covers exactly the same items.
 */
export function selectItems<T>(items: readonly T[], settings: Pick<RunSettings, "limit" | "sample">): T[] {
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
