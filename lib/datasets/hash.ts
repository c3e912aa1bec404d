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
    const separator = this.count++ > 0 ? "," : "";
    if (!isUsualItem(item)) {
      this.hash.update(separator + canonicalJson(item));
      return;
    }
    // canonicalJson of the usual item, fed in pieces: its long strings (the search context, a trace) go to the hash as
    // they are whenever JSON.stringify would only quote them, never copied into an escaped copy and a joined line. A
    // 2,000-item import spent ~48 ms here with the item's JSON built whole, ~20 ms in pieces (less garbage, too).
    const { answers, context, diagnosticTraceContext, id, metadata, question } = item;
    this.hash.update(`${separator}{"answers":${JSON.stringify(answers)},"context":`);
    this.updateJsonString(context);
    if (diagnosticTraceContext !== undefined) {
      this.hash.update(`,"diagnosticTraceContext":`);
      this.updateJsonString(diagnosticTraceContext);
    }
    this.hash.update(`,"id":${JSON.stringify(id)}${metadata === undefined ? "" : `,"metadata":${canonicalJson(metadata)}`},"question":${JSON.stringify(question)}}`);
  }

  /** JSON.stringify(text) into the hash: quoted as it is when nothing in it would be escaped. */
  private updateJsonString(text: string): void {
    if (NEEDS_JSON_ESCAPE.test(text)) this.hash.update(JSON.stringify(text));
    else this.hash.update('"').update(text).update('"');
  }

  digest(): string {
    return this.hash.update("]").digest("hex");
  }
}

const ITEM_KEYS = new Set(["answers", "context", "diagnosticTraceContext", "id", "metadata", "question"]);

/** The usual item: its known keys only, its text fields strings, its answers a list of strings. */
function isUsualItem(item: DatasetItem): boolean {
  const { answers, context, diagnosticTraceContext, id, question } = item;
  return typeof context === "string" && typeof id === "string" && typeof question === "string" && Array.isArray(answers)
    && answers.every((answer) => typeof answer === "string") && (diagnosticTraceContext === undefined || typeof diagnosticTraceContext === "string")
    && Object.keys(item).every((key) => ITEM_KEYS.has(key));
}

/** What JSON.stringify escapes in a string: the quote, the backslash, control characters and (lone) surrogates. */
const NEEDS_JSON_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

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
