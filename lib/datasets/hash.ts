import { createHash } from "node:crypto";
import { shareEventLoop } from "./time-slice";
import type { DatasetItem } from "./types";

/**
 * Stable content hash of parsed items: sha256 (hex) of a canonical JSON array of the items in order,
 * with object keys sorted at every level, so the same dataset imported twice (even from another
 * format, or with fields in another order) is recognised. Item order counts. Shares the event loop
 * as it goes (600,000 items take over a second).
 */
export async function hashDatasetItems(items: readonly DatasetItem[]): Promise<string> {
  const hasher = new DatasetItemsHasher();
  for (const item of items) {
    hasher.add(item);
    await shareEventLoop();
  }
  return hasher.digest();
}

/** The same hash fed item by item as a file is read (a 50 MB dataset never becomes one more 50 MB string). */
export class DatasetItemsHasher {
  private readonly hash = createHash("sha256").update("[");
  private count = 0;

  add(item: DatasetItem): void {
    if (this.count++ > 0) this.hash.update(",");
    this.hash.update(canonicalJson(item));
  }

  digest(): string {
    return this.hash.update("]").digest("hex");
  }
}

/**
 * JSON.stringify semantics (undefined fields dropped, non-finite numbers → null) with sorted keys. Recursive: items
 * reach it validated, so no metadata value is nested deeper than MAX_NESTING_DEPTH (lib/datasets/limits.ts).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((element) => (element === undefined ? "null" : canonicalJson(element))).join(",")}]`;
  const fields = Object.entries(value as Record<string, unknown>)
    .filter(([, fieldValue]) => fieldValue !== undefined && typeof fieldValue !== "function")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, fieldValue]) => `${JSON.stringify(name)}:${canonicalJson(fieldValue)}`);
  return `{${fields.join(",")}}`;
}
