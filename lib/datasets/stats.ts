import { MAX_CONTEXT_CHARS } from "../prompts/truncate-context";
import { codePointLength } from "../text/python";
import { shareEventLoop } from "./time-slice";
import type { DatasetItem } from "./types";

/** The dataset page lists at most this many metadata fields (the most frequent); items may each carry other ones. */
export const MAX_LISTED_METADATA_FIELDS = 100;

export interface Distribution {
  min: number;
  mean: number;
  median: number;
  p95: number;
  max: number;
}

/** What the dataset page shows; computed once at import so the page never scans the items. */
export interface DatasetStats {
  itemCount: number;
  /** Accepted answers per item. */
  answersPerItem: Distribution;
  /** Answer lengths in characters (code points), over all accepted answers. */
  answerLength: Distribution;
  /** Context lengths in characters (code points, as the seed's truncation counts them). */
  contextLength: Distribution;
  emptyContexts: number;
  /** Contexts longer than the 6000-character budget: the prompt will carry a truncated context. */
  truncatedContexts: number;
  /** Metadata fields present on items (e.g. category), with how many items carry each: the most frequent ones. */
  metadataFields: Record<string, number>;
  /** How many more distinct metadata fields items carry beyond those listed (absent when none). */
  unlistedMetadataFields?: number;
}

/** Computed in one pass over the items, sharing the event loop as it goes (600,000 items take a while). */
export async function computeDatasetStats(items: readonly DatasetItem[]): Promise<DatasetStats> {
  const stats = new DatasetStatsAccumulator();
  for (const item of items) {
    stats.add(item);
    await shareEventLoop();
  }
  return stats.result();
}

/** The same statistics gathered item by item as a file is read, holding only numbers. */
export class DatasetStatsAccumulator {
  private readonly contextLengths: number[] = [];
  private readonly answersPerItem: number[] = [];
  private readonly answerLengths: number[] = [];
  private readonly fieldCounts = new Map<string, number>();

  add(item: DatasetItem): void {
    this.contextLengths.push(codePointLength(item.context));
    this.answersPerItem.push(item.answers.length);
    for (const answer of item.answers) this.answerLengths.push(codePointLength(answer));
    for (const key of Object.keys(item.metadata ?? {})) this.fieldCounts.set(key, (this.fieldCounts.get(key) ?? 0) + 1);
  }

  result(): DatasetStats {
    const { contextLengths, fieldCounts } = this;
    // Most frequent first (ties in order of first appearance); the rest only counted.
    const listed = [...fieldCounts].sort(([, a], [, b]) => b - a).slice(0, MAX_LISTED_METADATA_FIELDS);
    const unlisted = fieldCounts.size - listed.length;
    return {
      itemCount: contextLengths.length,
      answersPerItem: distribution(Float64Array.from(this.answersPerItem)),
      answerLength: distribution(Float64Array.from(this.answerLengths)),
      contextLength: distribution(Float64Array.from(contextLengths)),
      emptyContexts: contextLengths.filter((length) => length === 0).length,
      truncatedContexts: contextLengths.filter((length) => length > MAX_CONTEXT_CHARS).length,
      // fromEntries: a field named "__proto__" stays a field.
      metadataFields: Object.fromEntries(listed),
      ...(unlisted > 0 && { unlistedMetadataFields: unlisted }),
    };
  }
}

function distribution(values: Float64Array): Distribution {
  if (values.length === 0) return { min: 0, mean: 0, median: 0, p95: 0, max: 0 };
  // A typed array sorts numerically, and several times faster than an array of numbers.
  const sorted = values.slice().sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1) + 0.5))]!;
  return {
    min: sorted[0]!,
    mean: sorted.reduce((sum, v) => sum + v, 0) / sorted.length,
    median: at(0.5),
    p95: at(0.95),
    max: sorted[sorted.length - 1]!,
  };
}
