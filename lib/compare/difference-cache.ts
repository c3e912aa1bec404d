import { createHash } from "node:crypto";
import { describeDifference, type RunDifference } from "./summary";
import type { PairedScores } from "./types";

const MAX_ENTRIES = 32;
const cache = new Map<string, RunDifference>();

/**
 * `describeDifference`, remembered by the content of the paired scores. Its bootstrap costs seconds at tens of
 * thousands of items, and the compare page recomputes on every click (a group, the next item); keyed by content,
 * a finished pair is computed once and a run that changed (live, retried) simply misses.
 */
export function describeDifferenceCached(paired: PairedScores): RunDifference {
  const key = fingerprint(paired);
  const hit = cache.get(key);
  if (hit) {
    // Least recently used goes first: re-insert on a hit.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const difference = describeDifference(paired);
  cache.set(key, difference);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return difference;
}

function fingerprint(paired: PairedScores): string {
  const hash = createHash("sha256");
  hash.update(`${paired.onlyReference.length}\t${paired.onlyOther.length}\n`);
  for (const side of [paired.reference, paired.other]) {
    for (const s of side) hash.update(`${s.itemId}\t${s.em}\t${s.f1}\t${s.subEm}\t${s.status}\t${s.latencyMs}\t${s.tokens}\n`);
  }
  return hash.digest("hex");
}
