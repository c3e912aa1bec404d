/** One problem found while reading a dataset file. */
export interface DatasetIssue {
  /** 1-based line in the file where the offending record (or syntax error) starts. */
  line?: number;
  /** 1-based position in the item list (JSON files only). */
  item?: number;
  /** Source field name, e.g. "answers". */
  field?: string;
  message: string;
}

/** Where a record came from; the shared part of every issue about it. */
export interface RecordLocation {
  line?: number;
  item?: number;
}

/** Beyond this many issues the rest are only counted: a broken 50 MB file would otherwise produce a million lines. */
export const MAX_REPORTED_ISSUES = 50;

/** "item 3 (line 12)", "line 7", "item 3" or "" — the location part of an issue line. */
export function formatLocation(location: RecordLocation): string {
  if (location.item !== undefined) {
    return location.line !== undefined ? `item ${location.item} (line ${location.line})` : `item ${location.item}`;
  }
  return location.line !== undefined ? `line ${location.line}` : "";
}

/** `data.jsonl: line 7: field "answers": must be a non-empty list of strings` */
export function formatIssue(file: string, issue: DatasetIssue): string {
  const parts = [file];
  const location = formatLocation(issue);
  if (location) parts.push(location);
  if (issue.field !== undefined) parts.push(`field "${issue.field}"`);
  parts.push(issue.message);
  return parts.join(": ");
}

/** Thrown instead of returning any items when a dataset file has at least one problem. */
export class DatasetValidationError extends Error {
  readonly file: string;
  /** The first MAX_REPORTED_ISSUES issues, in file order (duplicate ids come last). */
  readonly issues: DatasetIssue[];
  /** Issues found beyond the reported ones. */
  readonly omittedIssueCount: number;

  constructor(file: string, issues: DatasetIssue[], omittedIssueCount = 0) {
    const lines = issues.map((issue) => formatIssue(file, issue));
    if (omittedIssueCount > 0) lines.push(`${file}: ... and ${omittedIssueCount} more issue${omittedIssueCount === 1 ? "" : "s"}`);
    super(lines.join("\n"));
    this.name = "DatasetValidationError";
    this.file = file;
    this.issues = issues;
    this.omittedIssueCount = omittedIssueCount;
  }
}

/** Collects issues up to the cap and counts the rest. */
export class IssueList {
  readonly reported: DatasetIssue[] = [];
  private omitted = 0;

  add(issue: DatasetIssue): void {
    if (this.reported.length < MAX_REPORTED_ISSUES) this.reported.push(issue);
    else this.omitted += 1;
  }

  get count(): number {
    return this.reported.length + this.omitted;
  }

  toError(file: string): DatasetValidationError {
    return new DatasetValidationError(file, this.reported, this.omitted);
  }
}
