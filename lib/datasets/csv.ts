import Papa from "papaparse";
import { DatasetItemCollector, type DatasetReader } from "./collector";
import type { DatasetIssue } from "./errors";
import { formatCount, MAX_METADATA_FIELDS, MAX_RECORD_CHARS } from "./limits";
import { ITEM_FIELD_NAMES, validateRecord } from "./record";
import type { DatasetItem } from "./types";

type Newline = "\n" | "\r";

/** What papaparse's low-level Parser hands to `step`: one row, its errors, and where it ended. */
interface RowStep {
  data: string[][];
  errors: { code: string; message: string }[];
  meta: { cursor: number };
}

/**
 * Reads CSV with a header row. papaparse's own streaming does not report where a row starts, so we drive
 * its low-level Parser the way its ChunkStreamer does (parse what we have, keep the unfinished last row
 * for the next chunk) and count line breaks between row boundaries ourselves. A row's line is where its
 * record starts, even when a quoted field spans several lines.
 *
 * An unfinished row is parsed again only once the text held for it has doubled, so a very long row (or an unclosed
 * quote that swallows the rest of the file) costs time linear in its length; past MAX_RECORD_CHARS it is refused and
 * the rest of the file is not read.
 */
export class CsvDatasetReader implements DatasetReader {
  private readonly collector: DatasetItemCollector;
  private parser: Papa.Parser | undefined;
  private newline: Newline | undefined;
  /** Text after the last complete row (in pieces, joined when parsed), and the line it starts on. */
  private pending: string[] = [];
  private pendingLength = 0;
  private pendingLine = 1;
  /** The pending text is parsed again once it is this long. */
  private parseAt = 0;
  private lastChar = "";
  /** Set when a row passed the record limit: its issue says it all, and the rest of the file is ignored. */
  private abandoned = false;
  // State of the parse call in progress, read by the step callback.
  private input = "";
  private rowStart = 0;
  private rowLine = 1;
  /** "rejected" when the header row is unusable: its issues say it all, so rows are not checked. */
  private header: CsvHeader | "rejected" | undefined;

  constructor(file: string) {
    this.collector = new DatasetItemCollector(file);
  }

  push(text: string): void {
    if (this.abandoned || text === "") return;
    // The line break style is decided on the first one seen, so wait until there is one. Only the new text (and the
    // "\r" that may have ended the previous one) can hold it: the held text had none.
    this.newline ??= detectNewline(this.lastChar + text, false);
    this.lastChar = text[text.length - 1]!;
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength < this.parseAt) return;
    if (this.newline !== undefined) this.parse(false);
    else this.refuseIfTooLong(this.pendingLength);
  }

  takeItems(): DatasetItem[] {
    return this.collector.takeItems();
  }

  *finish(): Generator<void, DatasetItem[]> {
    if (!this.abandoned) {
      this.newline ??= detectNewline(this.pending.join(""), true);
      this.parse(true);
    }
    return this.collector.finish({
      emptyMessage: this.header === undefined ? "file is empty" : "no items (the file has only a header row)",
    });
  }

  private parse(isLastChunk: boolean): void {
    const newline = this.newline ?? "\n";
    this.parser ??= new Papa.Parser({
      delimiter: ",",
      newline,
      quoteChar: '"',
      step: (step) => this.onRow(step as unknown as RowStep),
    });
    this.input = this.pending.join("");
    this.rowStart = 0;
    this.rowLine = this.pendingLine;
    this.parser.parse(this.input, 0, !isLastChunk);
    const rest = this.input.slice(this.rowStart);
    this.pending = [rest];
    this.pendingLength = rest.length;
    this.parseAt = 2 * rest.length;
    this.pendingLine = this.rowLine;
    this.input = "";
    this.refuseIfTooLong(rest.length);
  }

  private refuseIfTooLong(unfinishedRowLength: number): void {
    if (unfinishedRowLength <= MAX_RECORD_CHARS) return;
    this.collector.addIssue({
      line: this.pendingLine,
      message: `the row is longer than ${formatCount(MAX_RECORD_CHARS)} characters (is a quoted field never closed?); a row can be at most that long`,
    });
    this.abandoned = true;
    this.pending = [];
    this.pendingLength = 0;
  }

  private onRow(step: RowStep): void {
    const rowEnd = step.meta.cursor;
    const line = this.rowLine;
    const fields = step.data[0] ?? [];
    this.stripCarriageReturn(fields, rowEnd);
    this.rowLine += countOccurrences(this.input, this.newline ?? "\n", this.rowStart, rowEnd);
    this.rowStart = rowEnd;

    if (fields.length === 1 && fields[0]?.trim() === "") return; // blank line
    if (step.errors.length > 0) {
      const error = step.errors[0];
      this.collector.addIssue({ line, message: `malformed CSV: ${describeQuoteError(error?.code, error?.message)}` });
      this.header ??= "rejected";
      return;
    }
    if (this.header === undefined) {
      const header = new CsvHeader(fields, line);
      for (const issue of header.issues) this.collector.addIssue(issue);
      this.header = header.issues.length > 0 ? "rejected" : header;
      return;
    }
    if (this.header !== "rejected") this.readRow(this.header, fields, line);
  }

  /** With "\n" as the row separator, a CRLF file leaves "\r" on the last unquoted field; take it off. */
  private stripCarriageReturn(fields: string[], rowEnd: number): void {
    const last = fields.length - 1;
    const lastField = fields[last];
    if (this.newline !== "\n" || !lastField?.endsWith("\r")) return;
    const endsWithCrlf = this.input.startsWith("\r\n", rowEnd - 2);
    const endsFileWithCr = rowEnd === this.input.length && this.input.endsWith("\r");
    if (endsWithCrlf || endsFileWithCr) fields[last] = lastField.slice(0, -1);
  }

  private readRow(header: CsvHeader, fields: string[], line: number): void {
    const extraFields = fields.slice(header.columns.length);
    // Trailing empty cells (a stray comma at the end of a row) are harmless; anything else is misaligned.
    if (fields.length < header.columns.length || extraFields.some((field) => field.trim() !== "")) {
      this.collector.addIssue({
        line,
        message: `has ${fields.length} fields but the header has ${header.columns.length} (check the quoting of this row)`,
      });
      return;
    }
    const entries: [string, unknown][] = [];
    const conversionIssues: DatasetIssue[] = [];
    header.columns.forEach((column, index) => {
      const cell = detachString(fields[index] ?? "");
      // An empty cell means "not given", so a blank required cell reads as `field "question": missing`.
      if (cell === "") return;
      if (column === "answers") {
        const answers = parseAnswersCell(cell);
        if (typeof answers === "string") conversionIssues.push({ line, field: column, message: answers });
        else entries.push([column, answers]);
      } else {
        entries.push([column, cell]);
      }
    });
    // fromEntries, not assignment: a column named "__proto__" must stay a plain field.
    const check = validateRecord(Object.fromEntries(entries), { line });
    if (conversionIssues.length > 0) {
      // The conversion issue already explains the answers cell better than "missing" would.
      check.issues = [...conversionIssues, ...check.issues.filter((issue) => issue.field !== "answers")];
      delete check.item;
    }
    this.collector.addCheckedRecord(check, { line });
  }
}

/** Column names and the problems that make the header unusable. */
class CsvHeader {
  readonly columns: string[];
  readonly issues: DatasetIssue[] = [];

  constructor(cells: string[], line: number) {
    this.columns = cells.map((cell) => cell.trim());
    const report = (message: string, field?: string): void => {
      this.issues.push({ line, ...(field !== undefined && { field }), message });
    };
    const otherSeparator = foreignSeparator(this.columns);
    if (otherSeparator !== undefined) {
      // Every column would be "missing"; one issue naming the real cause is clearer.
      report(`fields must be separated by "," but this header seems to use ${JSON.stringify(otherSeparator)}`);
      return;
    }
    const metadataColumns = this.columns.filter((column) => !ITEM_FIELD_NAMES.has(column));
    if (metadataColumns.length > MAX_METADATA_FIELDS) {
      report(
        `the header has ${formatCount(this.columns.length)} columns, ${formatCount(metadataColumns.length)} of them metadata; ` +
          `an item can carry at most ${MAX_METADATA_FIELDS} metadata fields`,
        metadataColumns[MAX_METADATA_FIELDS],
      );
      return;
    }
    const seen = new Set<string>();
    this.columns.forEach((column, index) => {
      if (column === "") report(`column ${index + 1} of the header has no name`);
      else if (seen.has(column)) report(`column "${column}" appears more than once in the header`);
      seen.add(column);
    });
    const listed = `the header has: ${this.columns.join(", ")}`;
    if (!seen.has("id") && !seen.has("key")) report(`missing column (expected "id" or "key"; ${listed})`, "id");
    if (!seen.has("question")) report(`missing column (${listed})`, "question");
    if (!seen.has("answers") && !seen.has("answer")) report(`missing column (expected "answers" or "answer"; ${listed})`, "answers");
  }
}

/** A one-column header full of ";" or tabs is a spreadsheet export with another separator. */
function foreignSeparator(columns: string[]): string | undefined {
  const only = columns.length === 1 ? (columns[0] ?? "") : "";
  return [";", "\t"].find((separator) => only.includes(separator));
}

/** `["a","b"]` (JSON) or `a|b`; a string result is the problem. */
function parseAnswersCell(cell: string): unknown[] | string {
  const trimmed = cell.trim();
  if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return `looks like a JSON list but is not valid JSON (write it like ["a","b"], or separate answers with "|")`;
    }
    return Array.isArray(parsed) ? parsed : `must be a JSON list of strings`;
  }
  return cell
    .split("|")
    .map((answer) => answer.trim())
    .filter((answer) => answer !== "");
}

/**
 * papaparse returns fields as V8 slices or ropes of the whole chunk it parsed, so keeping one field keeps
 * the entire chunk alive: a 100 MB upload would then cost several times its size for as long as the items
 * live. A JSON round trip makes a standalone copy; V8 shares storage only from 13 characters up.
 */
function detachString(value: string): string {
  return value.length < 13 ? value : (JSON.parse(JSON.stringify(value)) as string);
}

function describeQuoteError(code: string | undefined, message: string | undefined): string {
  if (code === "MissingQuotes") return "a quoted field is never closed";
  if (code === "InvalidQuotes") return 'a closing quote is followed by other text (inside a quoted field write a quote as "")';
  return message ?? "unreadable row";
}

/**
 * Rows end at "\n" (which also covers "\r\n"), unless the file only uses old-Mac "\r". Returns undefined while
 * the text seen so far cannot tell (no line break yet, or it ends right after a "\r" whose "\n" may follow).
 */
function detectNewline(text: string, isWholeText: boolean): Newline | undefined {
  if (text.includes("\n")) return "\n";
  const carriageReturn = text.indexOf("\r");
  if (carriageReturn !== -1 && carriageReturn < text.length - 1) return "\r";
  return isWholeText ? "\n" : undefined;
}

function countOccurrences(text: string, needle: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf(needle, from); at !== -1 && at < to; at = text.indexOf(needle, at + 1)) count += 1;
  return count;
}
