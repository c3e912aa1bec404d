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
    this.hash.update(canonicalItemJson(item));
  }

  digest(): string {
    return this.hash.update("]").digest("hex");
  }
}

const ITEM_KEYS = new Set(["answers", "context", "diagnosticTraceContext", "id", "metadata", "question"]);

/**
 * canonicalJson of an item, written out for the usual shape (its keys, sorted, and string fields), which a 20,000-item
 * import otherwise spent ~0.25 s on; anything else goes through canonicalJson.
 */
function canonicalItemJson(item: DatasetItem): string {
  const { answers, context, diagnosticTraceContext, id, metadata, question } = item;
  const usual = typeof context === "string" && typeof id === "string" && typeof question === "string" && Array.isArray(answers)
    && answers.every((answer) => typeof answer === "string") && (diagnosticTraceContext === undefined || typeof diagnosticTraceContext === "string")
    && Object.keys(item).every((key) => ITEM_KEYS.has(key));
  if (!usual) return canonicalJson(item);
  return `{"answers":${JSON.stringify(answers)},"context":${JSON.stringify(context)}${diagnosticTraceContext === undefined ? "" : `,"diagnosticTraceContext":${JSON.stringify(diagnosticTraceContext)}`},"id":${JSON.stringify(id)}${metadata === undefined ? "" : `,"metadata":${canonicalJson(metadata)}`},"question":${JSON.stringify(question)}}`;
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
