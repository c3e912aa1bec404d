import { codePointLength } from "@/lib/text/python";
import { clipText, visibleText } from "@/lib/text/visible-text";
import { formatCount } from "@/app/_lib/format";

/**
 * What a page renders of dataset and model text, so that it costs the same whatever the width or length of the data
 * (a field may hold 1,000,000 characters, an item 64 metadata fields, a list any number of answers): a table cell shows
 * at most CELL_TEXT_CHARS of a field, the item view at most BLOCK_TEXT_CHARS of a prompt or response unless asked to
 * show all, and a list at most LIST_ITEMS entries. The rest is counted and one link away (the download, or "show all").
 */
export const CELL_TEXT_CHARS = 2_000;
export const BLOCK_TEXT_CHARS = 20_000;
export const LIST_ITEMS = 20;

/** Text with control characters made visible (lib/text/visible-text.ts), cut at `max` with what was left out counted. */
export function ShownText({ text, max, moreHref }: { text: string; max: number | undefined; moreHref?: string }) {
  const { shown, hidden } = max === undefined ? { shown: text, hidden: 0 } : clipText(text, max);
  return (
    <>
      {visibleText(shown)}
      {hidden > 0 ? <MoreCharacters hidden={hidden} moreHref={moreHref} /> : null}
    </>
  );
}

/** "… 998,000 more characters (show all)" after a cut text. */
export function MoreCharacters({ hidden, moreHref }: { hidden: number; moreHref?: string }) {
  return (
    <span className="muted" data-testid="more-characters">
      {" "}… {formatCount(hidden)} more character{hidden === 1 ? "" : "s"}
      {moreHref ? (
        <>
          {" "}(<a href={moreHref}>show all</a>)
        </>
      ) : null}
    </span>
  );
}

/** Marked-up text (answer highlights, answer tags) cut at `max` characters in all, with what was left out counted. */
export function clipSegments<T extends { text: string }>(segments: readonly T[], max: number | undefined): { segments: T[]; hidden: number } {
  if (max === undefined) return { segments: [...segments], hidden: 0 };
  const kept: T[] = [];
  let room = max;
  let hidden = 0;
  for (const segment of segments) {
    if (room <= 0) {
      hidden += codePointLength(segment.text);
      continue;
    }
    const clipped = clipText(segment.text, room);
    kept.push({ ...segment, text: clipped.shown });
    hidden += clipped.hidden;
    room -= clipped.shown.length;
  }
  return { segments: kept, hidden };
}
