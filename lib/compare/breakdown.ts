import type { PairedScores } from "./types";

export interface BreakdownRow {
  value: string;
  n: number;
  referenceEm: number;
  otherEm: number;
  referenceF1: number;
  otherF1: number;
  /** otherEm − referenceEm */
  emDifference: number;
}

export interface FieldBreakdown {
  field: string;
  rows: BreakdownRow[];
}

/** A field with more distinct values than this is an id or free text, not a category. */
const MAX_VALUES = 40;

/**
 * EM and F1 of both runs per value of each metadata field (category, difficulty…), largest EM difference first.
 * Only scalar fields with 2 to 40 distinct values count; items without the field fall in "(none)".
 */
export function breakdownByMetadata(paired: PairedScores, metadata: ReadonlyMap<number, Record<string, unknown>>): FieldBreakdown[] {
  const fields = new Map<string, Map<string, number[]>>();
  paired.datasetItemIds.forEach((datasetItemId, index) => {
    for (const [field, raw] of Object.entries(metadata.get(datasetItemId) ?? {})) {
      if (raw !== null && typeof raw === "object") continue;
      const value = String(raw);
      const values = fields.get(field) ?? new Map<string, number[]>();
      const indexes = values.get(value) ?? [];
      indexes.push(index);
      values.set(value, indexes);
      fields.set(field, values);
    }
  });
  const result: FieldBreakdown[] = [];
  for (const [field, values] of fields) {
    const covered = [...values.values()].reduce((sum, indexes) => sum + indexes.length, 0);
    const missing = paired.itemIds.length - covered;
    if (missing > 0) values.set("(none)", paired.itemIds.map((_, index) => index).filter((index) => !isIn(values, index)));
    if (values.size < 2 || values.size > MAX_VALUES) continue;
    const rows = [...values].map(([value, indexes]) => row(paired, value, indexes));
    rows.sort((a, b) => Math.abs(b.emDifference) - Math.abs(a.emDifference) || b.n - a.n || a.value.localeCompare(b.value));
    result.push({ field, rows });
  }
  return result.sort((a, b) => maxDifference(b) - maxDifference(a) || a.field.localeCompare(b.field));
}

function isIn(values: Map<string, number[]>, index: number): boolean {
  for (const indexes of values.values()) if (indexes.includes(index)) return true;
  return false;
}

function row(paired: PairedScores, value: string, indexes: number[]): BreakdownRow {
  const mean = (side: "reference" | "other", key: "em" | "f1") => indexes.reduce((sum, index) => sum + paired[side][index]![key], 0) / indexes.length;
  const referenceEm = mean("reference", "em");
  const otherEm = mean("other", "em");
  return { value, n: indexes.length, referenceEm, otherEm, referenceF1: mean("reference", "f1"), otherF1: mean("other", "f1"), emDifference: otherEm - referenceEm };
}

function maxDifference(field: FieldBreakdown): number {
  return Math.max(0, ...field.rows.map((entry) => Math.abs(entry.emDifference)));
}
