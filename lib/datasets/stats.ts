import { MAX_CONTEXT_CHARS } from "../prompts/truncate-context";
import { codePointLength } from "../text/python";
import type { DatasetItem } from "./types";

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
  /** Metadata fields present on items (e.g. category), with how many items carry each. */
  metadataFields: Record<string, number>;
}

export function computeDatasetStats(items: readonly DatasetItem[]): DatasetStats {
  const contextLengths = items.map((item) => codePointLength(item.context));
  const metadataFields: Record<string, number> = {};
  for (const item of items) for (const key of Object.keys(item.metadata ?? {})) metadataFields[key] = (metadataFields[key] ?? 0) + 1;
  return {
    itemCount: items.length,
    answersPerItem: distribution(items.map((item) => item.answers.length)),
    answerLength: distribution(items.flatMap((item) => item.answers.map(codePointLength))),
    contextLength: distribution(contextLengths),
    emptyContexts: contextLengths.filter((length) => length === 0).length,
    truncatedContexts: contextLengths.filter((length) => length > MAX_CONTEXT_CHARS).length,
    metadataFields,
  };
}

function distribution(values: number[]): Distribution {
  if (values.length === 0) return { min: 0, mean: 0, median: 0, p95: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1) + 0.5))]!;
  return {
    min: sorted[0]!,
    mean: sorted.reduce((sum, v) => sum + v, 0) / sorted.length,
    median: at(0.5),
    p95: at(0.95),
    max: sorted[sorted.length - 1]!,
  };
}
