import { DatasetItemCollector, type DatasetReader } from "./collector";
import { scanJson } from "./json-scan";
import { lineAndColumnAt } from "./text-lines";
import { LineSplitter, type SplitLine } from "./line-splitter";
import { describeOversizedRecord } from "./oversized-record";
import type { DatasetItem } from "./types";

/**
 * Reads JSON Lines: one record per line, blank lines skipped. Lines are handled as soon as they are
 * complete, so only the current partial line is ever buffered (and only up to the record limit).
 */
export class JsonlDatasetReader implements DatasetReader {
  private readonly collector: DatasetItemCollector;
  private readonly lines = new LineSplitter();

  constructor(file: string) {
    this.collector = new DatasetItemCollector(file);
  }

  push(text: string): void {
    for (const line of this.lines.push(text)) this.readLine(line);
  }

  takeItems(): DatasetItem[] {
    return this.collector.takeItems();
  }

  *finish(): Generator<void, DatasetItem[]> {
    for (const line of this.lines.end()) this.readLine(line);
    return this.collector.finish({ emptyMessage: "file is empty" });
  }

  private readLine({ number: line, text, cut }: SplitLine): void {
    if (cut) {
      this.collector.addIssue({ line, ...describeOversizedRecord(text) });
      return;
    }
    if (text.trim() === "") return;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      this.collector.addIssue({ line, message: describeInvalidLine(text, error) });
      return;
    }
    this.collector.addRecord(record, { line });
  }
}

function describeInvalidLine(text: string, error: unknown): string {
  const problem = scanJson(text).syntaxProblem;
  if (problem === undefined) return `invalid JSON: ${error instanceof Error ? error.message : String(error)}`;
  return `invalid JSON at column ${lineAndColumnAt(text, problem.offset).column}: ${problem.message}`;
}
