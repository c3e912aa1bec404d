import { DatasetItemCollector, type DatasetReader } from "./collector";
import { lineAndColumnAt, scanJson } from "./json-scan";
import type { DatasetItem } from "./types";

/**
 * Reads JSON Lines: one record per line, blank lines skipped. Lines are handled as soon as they are
 * complete, so only the current partial line is ever buffered.
 */
export class JsonlDatasetReader implements DatasetReader {
  private readonly collector: DatasetItemCollector;
  /** Pieces of the line still being received; kept apart so a long line is joined once, not re-copied per chunk. */
  private partialLine: string[] = [];
  private lineNumber = 1;

  constructor(file: string) {
    this.collector = new DatasetItemCollector(file);
  }

  push(text: string): void {
    let lineStart = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", lineStart)) {
      this.partialLine.push(text.slice(lineStart, newline));
      this.readLine(this.partialLine.join(""));
      this.partialLine = [];
      lineStart = newline + 1;
    }
    if (lineStart < text.length) this.partialLine.push(text.slice(lineStart));
  }

  finish(): DatasetItem[] {
    if (this.partialLine.length > 0) this.readLine(this.partialLine.join(""));
    this.partialLine = [];
    return this.collector.finish({ emptyMessage: "file is empty" });
  }

  private readLine(rawLine: string): void {
    const line = this.lineNumber;
    this.lineNumber += 1;
    const text = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
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
