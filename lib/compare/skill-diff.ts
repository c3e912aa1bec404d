import { diffLines, diffWordsWithSpace } from "diff";

/** A piece of a changed line: `changed` marks the words that differ from the other side. */
export interface DiffSegment {
  text: string;
  changed: boolean;
}

export interface DiffLine {
  kind: "same" | "added" | "removed";
  /** 1-based line numbers on each side (null on the side the line is not on). */
  oldNumber: number | null;
  newNumber: number | null;
  segments: DiffSegment[];
}

/** One row of the side-by-side view: the old line (left) and the new one (right); either may be missing. */
export interface SplitRow {
  left: DiffLine | null;
  right: DiffLine | null;
}

export interface SkillDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
}

function splitLines(value: string): string[] {
  const lines = value.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * A line diff of two skill texts, with word-level highlights inside changed lines: a block of removed lines
 * followed by a block of added lines is paired line by line, and each pair is diffed word by word.
 */
export function diffSkillTexts(before: string, after: string): SkillDiff {
  const lines: DiffLine[] = [];
  let oldNumber = 0;
  let newNumber = 0;
  let added = 0;
  let removed = 0;
  const changes = diffLines(before, after);
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    if (!change.added && !change.removed) {
      for (const text of splitLines(change.value)) lines.push({ kind: "same", oldNumber: ++oldNumber, newNumber: ++newNumber, segments: [{ text, changed: false }] });
      continue;
    }
    const next = changes[i + 1];
    const removedLines = change.removed ? splitLines(change.value) : [];
    const addedLines = change.added ? splitLines(change.value) : change.removed && next?.added ? splitLines(next.value) : [];
    if (change.removed && next?.added) i++;
    removed += removedLines.length;
    added += addedLines.length;
    const pairs = Math.min(removedLines.length, addedLines.length);
    // A line with no counterpart is wholly added or removed: its background says so, no word is singled out.
    const oldSegments: DiffSegment[][] = removedLines.map((text) => [{ text, changed: false }]);
    const newSegments: DiffSegment[][] = addedLines.map((text) => [{ text, changed: false }]);
    for (let k = 0; k < pairs; k++) {
      const words = diffWordsWithSpace(removedLines[k]!, addedLines[k]!);
      oldSegments[k] = words.filter((word) => !word.added).map((word) => ({ text: word.value, changed: word.removed }));
      newSegments[k] = words.filter((word) => !word.removed).map((word) => ({ text: word.value, changed: word.added }));
    }
    for (const segments of oldSegments) lines.push({ kind: "removed", oldNumber: ++oldNumber, newNumber: null, segments });
    for (const segments of newSegments) lines.push({ kind: "added", oldNumber: null, newNumber: ++newNumber, segments });
  }
  return { lines, added, removed };
}

/** The unified lines laid out in two columns: unchanged lines on both sides, removed left and added right, paired. */
export function toSplitRows(lines: readonly DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.kind === "same") {
      rows.push({ left: line, right: line });
      i++;
      continue;
    }
    const removedBlock: DiffLine[] = [];
    const addedBlock: DiffLine[] = [];
    while (lines[i]?.kind === "removed") removedBlock.push(lines[i++]!);
    while (lines[i]?.kind === "added") addedBlock.push(lines[i++]!);
    for (let k = 0; k < Math.max(removedBlock.length, addedBlock.length); k++) rows.push({ left: removedBlock[k] ?? null, right: addedBlock[k] ?? null });
  }
  return rows;
}

/** `after` split into the words it shares with `before` and those it does not (for a response next to the reference's). */
export function wordChanges(before: string, after: string): DiffSegment[] {
  return diffWordsWithSpace(before, after)
    .filter((part) => !part.removed)
    .map((part) => ({ text: part.value, changed: part.added }));
}
