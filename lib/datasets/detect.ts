import type { DatasetFormat } from "./types";

const FORMAT_BY_EXTENSION: Record<string, DatasetFormat> = {
  json: "json",
  jsonl: "jsonl",
  ndjson: "jsonl",
  csv: "csv",
};

/**
 * Format from the file name's extension, else from its first characters (`head`, ideally at least the
 * first line; without one, CSV is assumed).
 */
export function detectFormat(fileName: string, head = ""): DatasetFormat {
  return formatFromExtension(fileName) ?? formatFromContent(head, true) ?? "csv";
}

export function formatFromExtension(fileName: string): DatasetFormat | undefined {
  const match = /\.([A-Za-z0-9]+)$/.exec(fileName.trim());
  return match?.[1] === undefined ? undefined : FORMAT_BY_EXTENSION[match[1].toLowerCase()];
}

/**
 * `[` → JSON; `{` → JSON Lines when the first line is a complete object on its own (unless it is a
 * one-line `{"data": [...]}` document), JSON otherwise (a pretty-printed object); anything else → CSV.
 * Returns undefined when `head` is only part of the text and does not decide yet.
 */
export function formatFromContent(head: string, headIsWholeText: boolean): DatasetFormat | undefined {
  const start = head.search(/\S/);
  if (start === -1) return headIsWholeText ? "csv" : undefined;
  const first = head[start];
  if (first === "[") return "json";
  if (first !== "{") return "csv";

  const lineEnd = head.indexOf("\n", start);
  if (lineEnd === -1 && !headIsWholeText) return undefined;
  const firstLine = head.slice(start, lineEnd === -1 ? undefined : lineEnd);
  let firstRecord: unknown;
  try {
    firstRecord = JSON.parse(firstLine);
  } catch {
    return "json";
  }
  const isDataDocument = typeof firstRecord === "object" && firstRecord !== null && Array.isArray((firstRecord as { data?: unknown }).data);
  return isDataDocument ? "json" : "jsonl";
}
