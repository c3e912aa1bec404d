import { PY_WHITESPACE, pySplit } from "../text/python";
import { tokenF1 } from "./evaluate";
import { ANSWER_TAG } from "./extract";
import { normalizeAnswer } from "./normalize";

/** A piece of the original text; `match` when its tokens are shared with the other side. */
export interface TextSegment {
  text: string;
  match: boolean;
}

export interface AnswerHighlight {
  /** The gold answer closest to the prediction: highest token F1, the first one on ties; null without golds. */
  closestGold: number | null;
  /** Token F1 against that gold. */
  f1: number;
  /** The prediction, with the words whose tokens the closest gold shares marked. */
  predicted: TextSegment[];
  /** The closest gold, with the words whose tokens the prediction shares marked. */
  gold: TextSegment[];
}

/**
 * Which words of the prediction and of the closest gold answer count toward token F1, for the item view. Tokens are
 * the scorer's own (normalizeAnswer, then whitespace split), matched as a multiset as F1 counts them; the text is
 * shown as written, split at the same whitespace, so a word is marked when one of its normalised tokens matched.
 * Normalising word by word gives the same tokens as normalising the whole string: punctuation and articles never
 * cross whitespace.
 */
export function highlightAnswer(predicted: string, golds: readonly string[]): AnswerHighlight {
  if (golds.length === 0) return { closestGold: null, f1: 0, predicted: [{ text: predicted, match: false }], gold: [] };
  let closestGold = 0;
  let best = -1;
  for (const [index, gold] of golds.entries()) {
    const f1 = tokenF1(predicted, [gold]);
    if (f1 > best) [closestGold, best] = [index, f1];
  }
  const gold = golds[closestGold] ?? "";
  return {
    closestGold,
    f1: best,
    predicted: markShared(predicted, tokenCounts(gold)),
    gold: markShared(gold, tokenCounts(predicted)),
  };
}

function tokenCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of pySplit(normalizeAnswer(text))) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

const WHITESPACE_RUN = new RegExp(`([${PY_WHITESPACE}]+)`, "u");

/**
 * Splits `text` at whitespace and marks each word having a token still available in `available` (consumed in order).
 * Neighbouring words with the same mark are merged with the space between them, so a matched phrase is one highlight.
 */
function markShared(text: string, available: Map<string, number>): TextSegment[] {
  const segments: TextSegment[] = [];
  const addUnmatched = (piece: string) => {
    const last = segments.at(-1);
    if (last && !last.match) last.text += piece;
    else segments.push({ text: piece, match: false });
  };
  let space = "";
  for (const part of text.split(WHITESPACE_RUN)) {
    if (part === "") continue;
    const tokens = pySplit(normalizeAnswer(part));
    if (pySplit(part).length === 0) {
      space += part;
      continue;
    }
    let match = false;
    for (const token of tokens) {
      const left = available.get(token) ?? 0;
      if (left > 0) {
        available.set(token, left - 1);
        match = true;
      }
    }
    const last = segments.at(-1);
    if (last && last.match === match) {
      last.text += space + part;
    } else {
      if (space) addUnmatched(space);
      if (match) segments.push({ text: part, match });
      else addUnmatched(part);
    }
    space = "";
  }
  if (space) addUnmatched(space);
  return segments;
}

export interface ResponseSegment {
  text: string;
  /** "tag": an <answer> or </answer> tag; "answer": a tag's content; "final": the content the scorer took. */
  kind: "text" | "tag" | "answer" | "final";
}

/**
 * A model response cut around its `<answer>…</answer>` tags, with the same pattern the scorer uses: the last tag's
 * content is the one it took ("final"); earlier ones are marked "answer".
 */
export function splitAnswerTags(response: string): ResponseSegment[] {
  const matches = [...response.matchAll(new RegExp(ANSWER_TAG.source, ANSWER_TAG.flags))];
  const segments: ResponseSegment[] = [];
  let at = 0;
  for (const [index, match] of matches.entries()) {
    const start = match.index;
    const whole = match[0];
    const content = match[1] ?? "";
    const open = whole.slice(0, whole.length - content.length - "</answer>".length);
    if (start > at) segments.push({ text: response.slice(at, start), kind: "text" });
    segments.push({ text: open, kind: "tag" });
    if (content) segments.push({ text: content, kind: index === matches.length - 1 ? "final" : "answer" });
    segments.push({ text: whole.slice(whole.length - "</answer>".length), kind: "tag" });
    at = start + whole.length;
  }
  if (at < response.length) segments.push({ text: response.slice(at), kind: "text" });
  return segments;
}
