import { pairedOutcome } from "../stats/paired-outcomes";
import type { ItemScore, OutcomeGroup, PairedScores } from "./types";

/**
 * Pairs two runs' results by item id. An item is compared only when both runs scored it (an error or a timeout
 * counts as scored, EM 0, as in the run's own EM); the rest are listed per side so the page can say so. The
 * order is the dataset's (then the item id), so the bootstrap and the lists are the same on every request.
 */
export function pairScores(reference: readonly ItemScore[], other: readonly ItemScore[]): PairedScores {
  const byId = new Map(other.map((score) => [score.itemId, score]));
  const paired: [ItemScore, ItemScore][] = [];
  const onlyReference: string[] = [];
  for (const score of reference) {
    const match = byId.get(score.itemId);
    if (match) {
      paired.push([score, match]);
      byId.delete(score.itemId);
    } else {
      onlyReference.push(score.itemId);
    }
  }
  paired.sort(([a], [b]) => a.datasetItemId - b.datasetItemId || (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0));
  return {
    itemIds: paired.map(([score]) => score.itemId),
    datasetItemIds: paired.map(([score]) => score.datasetItemId),
    reference: paired.map(([score]) => score),
    other: paired.map(([, score]) => score),
    onlyReference: onlyReference.sort(),
    onlyOther: [...byId.keys()].sort(),
  };
}

/** The group an aligned pair falls in; items wrong in both also fall in "f1-up" or "f1-down" when their F1 moved. */
export function outcomeGroupsOf(reference: Pick<ItemScore, "em" | "f1">, other: Pick<ItemScore, "em" | "f1">): OutcomeGroup[] {
  const outcome = pairedOutcome(reference.em, other.em);
  if (outcome !== "both-wrong") return [outcome];
  if (other.f1 > reference.f1) return ["both-wrong", "f1-up"];
  if (other.f1 < reference.f1) return ["both-wrong", "f1-down"];
  return ["both-wrong"];
}

/** The item ids of one group, in the paired (dataset) order. */
export function itemsInGroup(paired: PairedScores, group: OutcomeGroup): string[] {
  const ids: string[] = [];
  paired.itemIds.forEach((itemId, index) => {
    if (outcomeGroupsOf(paired.reference[index]!, paired.other[index]!).includes(group)) ids.push(itemId);
  });
  return ids;
}

/** Previous and next item of a group around `itemId` (null at the ends, or when the item is not in the group). */
export function neighboursInGroup(ids: readonly string[], itemId: string): { prev: string | null; next: string | null; position: number | null } {
  const at = ids.indexOf(itemId);
  if (at < 0) return { prev: null, next: null, position: null };
  return { prev: ids[at - 1] ?? null, next: ids[at + 1] ?? null, position: at + 1 };
}
