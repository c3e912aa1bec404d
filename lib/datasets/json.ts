import { DatasetItemCollector, type DatasetReader } from "./collector";
import { JsonScanner, ScanFailure, type ItemRanges } from "./json-scan";
import { lineAndColumnAt, linesAtOffsets } from "./text-lines";
import { MAX_RECORD_CHARS } from "./limits";
import { describeOversizedRecord } from "./oversized-record";
import { describeValue } from "./record";
import type { DatasetItem } from "./types";

/**
 * Reads a JSON array of records, or an object with a `data` list. JSON needs the whole text before anything can be
 * parsed, so chunks are only gathered; `finish` then scans the document once (syntax, and where each element is) and
 * parses it element by element, pausing between steps, so no single call holds the thread for the whole file.
 */
export class JsonDatasetReader implements DatasetReader {
  private readonly chunks: string[] = [];
  private readonly collector: DatasetItemCollector;
  private itemStarts: number[] = [];

  constructor(file: string) {
    this.collector = new DatasetItemCollector(file);
  }

  push(text: string): void {
    this.chunks.push(text);
  }

  takeItems(): DatasetItem[] {
    return this.collector.takeItems();
  }

  *finish(): Generator<void, DatasetItem[]> {
    const text = this.chunks.join("");
    this.chunks.length = 0;
    if (text.trim() !== "") yield* this.readRecords(text);
    return this.collector.finish({
      emptyMessage: text.trim() === "" ? "file is empty" : "no items (the list is empty)",
      resolveItemLines: () => {
        const lines = linesAtOffsets(text, this.itemStarts);
        return (item) => lines[item - 1];
      },
    });
  }

  private *readRecords(text: string): Generator<void> {
    const scanner = new JsonScanner(text);
    try {
      yield* scanner.scanDocument();
    } catch (error) {
      if (!(error instanceof ScanFailure)) throw error;
      this.collector.addIssue(describeSyntaxError(text, error));
      return;
    }
    const items = scanner.items;
    if (items === undefined) {
      this.collector.addIssue({ message: describeMissingList(text, scanner) });
      return;
    }
    this.itemStarts = items.starts;
    for (let index = 0; index < items.starts.length; index += 1) {
      this.readElement(text, items, index);
      yield;
    }
  }

  private readElement(text: string, items: ItemRanges, index: number): void {
    const start = items.starts[index]!;
    const end = items.ends[index]!;
    const location = { item: index + 1 };
    if (end - start > MAX_RECORD_CHARS) {
      this.collector.addIssue({ ...location, ...describeOversizedRecord(text.slice(start, start + MAX_RECORD_CHARS + 1)) });
      return;
    }
    let record: unknown;
    try {
      record = JSON.parse(text.slice(start, end));
    } catch (error) {
      // The scanner accepted it, so this should not happen; keep V8's own words.
      this.collector.addIssue({ ...location, message: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    this.collector.addRecord(record, location);
  }
}

/** Why a well-formed document holds no dataset list. */
function describeMissingList(text: string, scanner: JsonScanner): string {
  if (scanner.dataValue !== undefined) {
    const data: unknown = JSON.parse(text.slice(scanner.dataValue.start, scanner.dataValue.end));
    return `field "data": must be a list of items (got ${describeValue(data)})`;
  }
  const document: unknown = scanner.topKind === "object" ? {} : JSON.parse(text);
  return `expected a list of items or an object with a "data" list (got ${describeValue(document)})`;
}

function describeSyntaxError(text: string, failure: ScanFailure): { line?: number; message: string } {
  const { line, column } = lineAndColumnAt(text, failure.offset);
  const looksLikeJsonLines = failure.trailingContent && text.trimStart().startsWith("{");
  const hint = looksLikeJsonLines ? ' (this looks like JSON Lines, one object per line: use the ".jsonl" extension)' : "";
  return { line, message: `invalid JSON at column ${column}: ${failure.message}${hint}` };
}
