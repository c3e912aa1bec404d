import type { ItemScore } from "./types";

/**
 * One score per item from a run's rows: a run with repeated trials has a row per trial, and Compare pairs runs by
 * item, so each item's trials are averaged (EM becomes the share of trials right). Rows of a run without repeated
 * trials pass through unchanged. An item whose trials ended differently has the status "mixed".
 */
export function meanOverTrials(rows: readonly ItemScore[]): ItemScore[] {
  const byItem = new Map<string, { first: ItemScore; n: number; em: number; f1: number; subEm: number; latencyMs: number; tokens: number; mixed: boolean }>();
  for (const row of rows) {
    const entry = byItem.get(row.itemId);
    if (!entry) {
      byItem.set(row.itemId, { first: row, n: 1, em: row.em, f1: row.f1, subEm: row.subEm, latencyMs: row.latencyMs, tokens: row.tokens, mixed: false });
      continue;
    }
    entry.n++;
    entry.em += row.em;
    entry.f1 += row.f1;
    entry.subEm += row.subEm;
    entry.latencyMs += row.latencyMs;
    entry.tokens += row.tokens;
    entry.mixed ||= row.status !== entry.first.status;
  }
  return [...byItem.values()].map(({ first, n, mixed, ...sums }) =>
    n === 1
      ? first
      : {
          itemId: first.itemId,
          datasetItemId: first.datasetItemId,
          em: sums.em / n,
          f1: sums.f1 / n,
          subEm: sums.subEm / n,
          status: mixed ? "mixed" : first.status,
          latencyMs: sums.latencyMs / n,
          tokens: sums.tokens / n,
        },
  );
}
