import { DatasetItemCollector, type DatasetReader } from "./collector";
import { lineAndColumnAt, linesAtOffsets, scanJson } from "./json-scan";
import { describeValue } from "./record";
import type { DatasetItem } from "./types";

/**
 * Reads a JSON array of records, or an object with a `data` list. JSON needs the whole text before
 * anything can be parsed, so chunks are only gathered; streaming matters for JSONL and CSV.
 */
export class JsonDatasetReader implements DatasetReader {
  private readonly chunks: string[] = [];
  private readonly collector: DatasetItemCollector;

  constructor(file: string) {
    this.collector = new DatasetItemCollector(file);
  }

  push(text: string): void {
    this.chunks.push(text);
  }

  finish(): DatasetItem[] {
    const text = this.chunks.join("");
    this.chunks.length = 0;
    if (text.trim() !== "") this.readRecords(text);
    return this.collector.finish({
      emptyMessage: text.trim() === "" ? "file is empty" : "no items (the list is empty)",
      resolveItemLines: () => itemLineFinder(text),
    });
  }

  private readRecords(text: string): void {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      this.collector.addIssue(describeSyntaxError(text, error));
      return;
    }
    const records = recordList(document);
    if (typeof records === "string") {
      this.collector.addIssue({ message: records });
      return;
    }
    records.forEach((record, index) => this.collector.addRecord(record, { item: index + 1 }));
  }
}

/** The dataset list inside a parsed document, or why there is none. */
function recordList(document: unknown): unknown[] | string {
  if (Array.isArray(document)) return document;
  if (typeof document === "object" && document !== null && "data" in document) {
    const { data } = document;
    return Array.isArray(data) ? data : `field "data": must be a list of items (got ${describeValue(data)})`;
  }
  return `expected a list of items or an object with a "data" list (got ${describeValue(document)})`;
}

function describeSyntaxError(text: string, error: unknown): { line?: number; message: string } {
  const problem = scanJson(text).syntaxProblem;
  if (problem === undefined) {
    // The scanner and V8 disagree (should not happen); keep V8's own words.
    return { message: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const { line, column } = lineAndColumnAt(text, problem.offset);
  const looksLikeJsonLines = problem.trailingContent && text.trimStart().startsWith("{");
  const hint = looksLikeJsonLines ? ' (this looks like JSON Lines, one object per line: use the ".jsonl" extension)' : "";
  return { line, message: `invalid JSON at column ${column}: ${problem.message}${hint}` };
}

function itemLineFinder(text: string): (item: number) => number | undefined {
  const offsets = scanJson(text).itemOffsets ?? [];
  const lines = linesAtOffsets(text, offsets);
  return (item) => lines[item - 1];
}
