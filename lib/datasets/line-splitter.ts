import { MAX_RECORD_CHARS } from "./limits";

/** One line of a line-based file (JSONL, a results file), without its line break. */
export interface SplitLine {
  /** 1-based. */
  number: number;
  text: string;
  /**
   * The line was longer than the limit: `text` is only its beginning (the limit plus one character), and the rest was
   * dropped as it arrived. Such a line is refused, not parsed (see describeOversizedRecord).
   */
  cut: boolean;
}

/**
 * Splits streamed text into lines ("\n", or "\r\n"), keeping only the line in progress. Each chunk is searched once
 * (never the text before it), and a line is joined once when it ends, so a single 150 MB line costs one pass; past
 * `maxChars` a line's text stops being kept at all.
 */
export class LineSplitter {
  private parts: string[] = [];
  private kept = 0;
  private cut = false;
  private lineNumber = 0;

  constructor(private readonly maxChars: number = MAX_RECORD_CHARS) {}

  /** The lines `text` completes, blank ones included (callers skip them, but they count for the numbers). */
  push(text: string): SplitLine[] {
    const lines: SplitLine[] = [];
    let lineStart = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", lineStart)) {
      this.keep(text.slice(lineStart, newline));
      lines.push(this.take());
      lineStart = newline + 1;
    }
    if (lineStart < text.length) this.keep(lineStart === 0 ? text : text.slice(lineStart));
    return lines;
  }

  /** The last line, when the text does not end with a line break. */
  end(): SplitLine[] {
    return this.parts.length > 0 || this.cut ? [this.take()] : [];
  }

  private keep(piece: string): void {
    if (this.cut) return;
    const room = this.maxChars + 1 - this.kept;
    if (piece.length < room) {
      this.parts.push(piece);
      this.kept += piece.length;
      return;
    }
    this.parts.push(piece.slice(0, room));
    this.cut = true;
  }

  private take(): SplitLine {
    const joined = this.parts.join("");
    const line: SplitLine = { number: ++this.lineNumber, text: !this.cut && joined.endsWith("\r") ? joined.slice(0, -1) : joined, cut: this.cut };
    this.parts = [];
    this.kept = 0;
    this.cut = false;
    return line;
  }
}
