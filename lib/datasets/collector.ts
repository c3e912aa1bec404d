import { IssueList, type DatasetIssue, type RecordLocation } from "./errors";
import { validateRecord, type RecordCheck } from "./record";
import type { DatasetItem } from "./types";

/**
 * What every format reader offers: feed decoded text in order, then get the validated items (or a throw). `finish` is
 * stepwise (a generator yielding between steps) because a JSON file is only read there, and the caller may have to
 * share the event loop while it is (lib/datasets/time-slice.ts).
 */
export interface DatasetReader {
  push(text: string): void;
  /** The items validated so far and not yet taken (none once anything is wrong); `finish` returns the rest. */
  takeItems(): DatasetItem[];
  finish(): Generator<void, DatasetItem[]>;
}

/** How many duplicated ids the duplicate-id issue names, and how many places per id. */
const LISTED_DUPLICATE_IDS = 5;
const LISTED_OCCURRENCES_PER_ID = 5;

export interface FinishOptions {
  /** Issue message when the file held no records at all (e.g. "file is empty"). */
  emptyMessage: string;
  /**
   * For JSON, where records are numbered by list position: finds the line each item starts on.
   * Only called when there is something to report, because it rescans the whole text.
   */
  resolveItemLines?: () => (item: number) => number | undefined;
}

/**
 * Accumulates validated items for one file: records go through the shared validation, issues are
 * capped, ids are checked for duplicates, and `finish` either returns every item or throws.
 */
export class DatasetItemCollector {
  private items: DatasetItem[] = [];
  private readonly issues = new IssueList();
  private readonly firstSeenAt = new Map<string, RecordLocation>();
  /** id → every place it appears (the first one included), only for ids seen more than once. */
  private readonly duplicates = new Map<string, RecordLocation[]>();
  private recordCount = 0;

  constructor(readonly file: string) {}

  addRecord(record: unknown, location: RecordLocation): void {
    this.addCheckedRecord(validateRecord(record, location), location);
  }

  /** For readers that adjust the check first (CSV replaces a field's issues with a more specific one). */
  addCheckedRecord(check: RecordCheck, location: RecordLocation): void {
    this.recordCount += 1;
    for (const issue of check.issues) this.issues.add(issue);
    if (check.id !== undefined) this.trackId(check.id, location);
    // Once anything is wrong nothing is returned, so stop keeping items around.
    if (check.item !== undefined && this.issues.count === 0) this.items.push(check.item);
  }

  /** A problem that is not about one record's fields (syntax, header, encoding). */
  addIssue(issue: DatasetIssue): void {
    this.issues.add(issue);
  }

  /** See DatasetReader.takeItems: a file with an issue or a duplicated id hands over nothing more. */
  takeItems(): DatasetItem[] {
    if (this.hasIssues || this.duplicates.size > 0) return [];
    const taken = this.items;
    this.items = [];
    return taken;
  }

  get hasIssues(): boolean {
    return this.issues.count > 0;
  }

  finish(options: FinishOptions): DatasetItem[] {
    if (this.recordCount === 0 && !this.hasIssues) this.issues.add({ message: options.emptyMessage });
    this.fillInItemLines(options);
    if (this.duplicates.size > 0) this.issues.add({ field: "id", message: this.describeDuplicates() });
    if (this.hasIssues) throw this.issues.toError(this.file);
    return this.items;
  }

  private trackId(id: string, location: RecordLocation): void {
    const first = this.firstSeenAt.get(id);
    if (first === undefined) {
      this.firstSeenAt.set(id, location);
      return;
    }
    const places = this.duplicates.get(id);
    if (places === undefined) this.duplicates.set(id, [first, location]);
    else if (places.length <= LISTED_OCCURRENCES_PER_ID) places.push(location);
  }

  private fillInItemLines(options: FinishOptions): void {
    const reported = [...this.issues.reported, ...[...this.duplicates.values()].flat()];
    const needLines = reported.filter((location) => location.item !== undefined && location.line === undefined);
    if (options.resolveItemLines === undefined || needLines.length === 0) return;
    const lineOf = options.resolveItemLines();
    for (const location of needLines) {
      const line = location.item === undefined ? undefined : lineOf(location.item);
      if (line !== undefined) location.line = line;
    }
  }

  /** `duplicate ids: "q1" on lines 2, 9; "q2" on lines 3, 10 (and 4 more duplicated ids)` */
  private describeDuplicates(): string {
    const listed = [...this.duplicates].slice(0, LISTED_DUPLICATE_IDS).map(([id, places]) => {
      const shown = places.slice(0, LISTED_OCCURRENCES_PER_ID);
      const more = places.length > shown.length ? ", …" : "";
      return `${JSON.stringify(id)} ${describePlaces(shown)}${more}`;
    });
    const unlisted = this.duplicates.size - listed.length;
    const tail = unlisted > 0 ? ` (and ${unlisted} more duplicated id${unlisted === 1 ? "" : "s"})` : "";
    return `duplicate ids: ${listed.join("; ")}${tail}`;
  }
}

/** "on lines 2, 9" for line-based formats, "at items 1, 4 (lines 3, 12)" for JSON lists. */
function describePlaces(places: RecordLocation[]): string {
  const items = places.flatMap((place) => (place.item !== undefined ? [place.item] : []));
  const lines = places.flatMap((place) => (place.line !== undefined ? [place.line] : []));
  if (items.length === places.length) {
    const lineList = lines.length === places.length ? ` (lines ${lines.join(", ")})` : "";
    return `at items ${items.join(", ")}${lineList}`;
  }
  return `on lines ${lines.join(", ")}`;
}
