/**
 * A deterministic extractive reader: picks a short span of the context as the answer, with no
 * language model. It gives runs a floor to compare skills against and works fully offline.
 */

import { splitPassages, type Passage } from "../prompts/passages";

export interface QAPrompt {
  context: string;
  question: string;
}

export interface ChosenSpan {
  span: string;
  /** 1-based passage the span was taken from (the one most like the question). */
  passage: number;
  /** Content words shared by the question and that passage. */
  overlap: number;
  /** Passages containing the span. */
  support: number;
}

const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her hers him his how i if in " +
    "into is it its itself me my no nor not of on or our she so than that the their them then there these they this " +
    "those to too was we were what when where which while who whom whose why will with would you your yours " +
    "also about after all any before being both each few more most other over same some such under until up very " +
    "one ones named called known name his her s"
  ).split(" "),
);

const MAX_SPAN_WORDS = 4;
const MAX_TITLE_WORDS = 6;
const WORD = /[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu;

/** Reads `## Context` and `## Question` sections; a message without headings is all question. */
export function parseQAPrompt(message: string): QAPrompt {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of message.split(/\r?\n/)) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading?.[1]) {
      current = [];
      const key = heading[1].toLowerCase();
      if (!sections.has(key)) sections.set(key, current);
    } else {
      current?.push(line);
    }
  }
  if (sections.size === 0) return { context: "", question: message.trim() };
  return {
    context: (sections.get("context") ?? []).join("\n").trim(),
    question: (sections.get("question") ?? []).join("\n").trim(),
  };
}

export function chooseSpan(prompt: QAPrompt): ChosenSpan | undefined {
  const passages = splitPassages(prompt.context);
  const questionWords = new Set(contentWords(prompt.question));
  // Tokenised once: the title and text are joined by a newline so a capitalised run cannot span both.
  const tokenised = passages.map((passage) => {
    const text = `${passage.title}\n${passage.text}`;
    const words = wordsOf(text);
    return { passage, text, words, lower: words.map((word) => word.text.toLowerCase()) };
  });
  const candidates = candidateSpans(tokenised, questionWords);
  const supportByKey = passagesContaining(tokenised, candidates);
  const overlaps = tokenised.map(({ lower }) => {
    const words = new Set(lower);
    return [...questionWords].filter((word) => words.has(word)).length;
  });

  let best: (ChosenSpan & { key: string; order: number }) | undefined;
  for (const candidate of candidates.values()) {
    const containing = supportByKey.get(candidate.key) ?? [];
    let bestPassage = -1;
    for (const index of containing) {
      if (bestPassage < 0 || (overlaps[index] ?? 0) > (overlaps[bestPassage] ?? 0)) bestPassage = index;
    }
    if (bestPassage < 0) continue;
    const scored = {
      span: candidate.span,
      key: candidate.key,
      order: candidate.order,
      passage: bestPassage + 1,
      overlap: overlaps[bestPassage] ?? 0,
      support: containing.length,
    };
    if (!best || isBetter(scored, best)) best = scored;
  }
  return best && { span: best.span, passage: best.passage, overlap: best.overlap, support: best.support };
}

/**
 * For each candidate key, the indices of the passages whose words contain it. Only word positions
 * that can start a candidate are expanded, which keeps long contexts to a few milliseconds.
 */
function passagesContaining(passages: TokenisedPassage[], candidates: Map<string, Candidate>): Map<string, number[]> {
  const firstWords = new Set<string>();
  let longest = 1;
  for (const key of candidates.keys()) {
    const words = key.split(" ");
    firstWords.add(words[0] ?? "");
    longest = Math.max(longest, words.length);
  }
  const found = new Map<string, number[]>();
  for (const [index, { lower: words }] of passages.entries()) {
    for (let start = 0; start < words.length; start += 1) {
      if (!firstWords.has(words[start] ?? "")) continue;
      let key = "";
      for (let end = start; end < Math.min(words.length, start + longest); end += 1) {
        key = end === start ? (words[end] ?? "") : `${key} ${words[end]}`;
        if (!candidates.has(key)) continue;
        const list = found.get(key);
        if (!list) found.set(key, [index]);
        else if (list[list.length - 1] !== index) list.push(index);
      }
    }
  }
  return found;
}

/** Score = overlap of the best passage + passages containing the span; then earlier, then longer. */
function isBetter(a: ChosenSpan & { key: string; order: number }, b: ChosenSpan & { key: string; order: number }): boolean {
  const scoreA = a.overlap + a.support;
  const scoreB = b.overlap + b.support;
  if (scoreA !== scoreB) return scoreA > scoreB;
  if (a.support !== b.support) return a.support > b.support;
  if (a.order !== b.order) return a.order < b.order;
  return a.key.length > b.key.length;
}

interface Candidate {
  key: string;
  span: string;
  /** First-seen order, for deterministic ties. */
  order: number;
}

/** Passage titles (up to the first " - " or " | ") and capitalised word runs of 1–4 words. */
function candidateSpans(passages: TokenisedPassage[], questionWords: Set<string>): Map<string, Candidate> {
  const byKey = new Map<string, Candidate>();
  const add = (words: string[], span: string) => {
    const lower = words.map((word) => word.toLowerCase());
    if (lower.length === 0 || STOP_WORDS.has(lower[0]!) || STOP_WORDS.has(lower[lower.length - 1]!)) return;
    if (lower.some((word) => questionWords.has(word))) return;
    const key = lower.join(" ");
    if (!byKey.has(key)) byKey.set(key, { key, span, order: byKey.size });
  };
  for (const { passage, text, words } of passages) {
    const title = passage.title.split(/\s+[-|–—]\s+|:\s+/)[0]?.trim() ?? "";
    const titleWords = wordsOf(title).map((word) => word.text);
    if (titleWords.length > 0 && titleWords.length <= MAX_TITLE_WORDS) add(titleWords, title);
    for (const run of capitalisedRuns(text, words)) {
      for (let start = 0; start < run.length; start += 1) {
        for (let end = start + 1; end <= Math.min(run.length, start + MAX_SPAN_WORDS); end += 1) {
          const words = run.slice(start, end).map((word) => word.text);
          add(words, words.join(" "));
        }
      }
    }
  }
  return byKey;
}

interface TokenisedPassage {
  passage: Passage;
  text: string;
  words: Word[];
  lower: string[];
}

interface Word {
  text: string;
  start: number;
  end: number;
}

function wordsOf(text: string): Word[] {
  return [...text.matchAll(WORD)].map((match) => ({ text: match[0], start: match.index, end: match.index + match[0].length }));
}

function contentWords(text: string): string[] {
  return wordsOf(text)
    .map((word) => word.text.toLowerCase())
    .filter((word) => !STOP_WORDS.has(word));
}

/** Maximal runs of capitalised words separated only by spaces (punctuation ends a run). */
function capitalisedRuns(text: string, words: Word[]): Word[][] {
  const runs: Word[][] = [];
  let run: Word[] = [];
  let previous: Word | undefined;
  for (const word of words) {
    const capitalised = /^\p{Lu}/u.test(word.text);
    const joined = previous !== undefined && /^[ \t]+$/.test(text.slice(previous.end, word.start));
    if (!capitalised || !joined) {
      if (run.length > 0) runs.push(run);
      run = [];
    }
    if (capitalised) run.push(word);
    previous = word;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
