/** How one item's result moved from the reference run to another run of the same dataset. */
export type PairedOutcome = "fixed" | "broken" | "both-right" | "both-wrong";

export interface ScoredPair {
  itemId: string;
  reference: { em: number; f1: number };
  other: { em: number; f1: number };
}

export interface OutcomeCounts {
  fixed: number;
  broken: number;
  bothRight: number;
  bothWrong: number;
  /** Among items wrong in both runs: F1 went up, down, or stayed. */
  f1Up: number;
  f1Down: number;
  f1Same: number;
}

export function pairedOutcome(referenceEm: number, otherEm: number): PairedOutcome {
  const before = referenceEm >= 1;
  const after = otherEm >= 1;
  if (before && after) return "both-right";
  if (!before && !after) return "both-wrong";
  return after ? "fixed" : "broken";
}

export function countOutcomes(pairs: readonly ScoredPair[]): OutcomeCounts {
  const counts: OutcomeCounts = { fixed: 0, broken: 0, bothRight: 0, bothWrong: 0, f1Up: 0, f1Down: 0, f1Same: 0 };
  for (const pair of pairs) {
    const outcome = pairedOutcome(pair.reference.em, pair.other.em);
    if (outcome === "fixed") counts.fixed++;
    else if (outcome === "broken") counts.broken++;
    else if (outcome === "both-right") counts.bothRight++;
    else {
      counts.bothWrong++;
      if (pair.other.f1 > pair.reference.f1) counts.f1Up++;
      else if (pair.other.f1 < pair.reference.f1) counts.f1Down++;
      else counts.f1Same++;
    }
  }
  return counts;
}
