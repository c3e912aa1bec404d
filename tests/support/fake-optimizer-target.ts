/**
 * The target half of the fake optimisation world: a dataset and a target policy whose answers depend on the
 * skill's text, so that the scripted optimizer's edits (fake-optimizer.ts) move scores. The loop's tests rely on
 * exactly this:
 *
 * DATASET (`optimizationDataset({ size, topics, seed, lureRate })`): item i (id `opt-0000`, `opt-0001`, …) has
 * topic `t<k>` with k = i % topics; its question starts with the tag `[topic: t<k>]`; its context has three
 * SearchQA passages `[DOC] [TLE] <title> [PAR] <text>`; its gold answer is the title of the passage at the
 * topic's GOLD POSITION: k % 3 = 0 → first, 1 → second, 2 → third. Some items of non-baseline topics (each with
 * probability `lureRate`, default 0.25, drawn from `seed`) also carry a misleading cross-reference
 * `(compare t<j>)` naming a baseline topic j; it does not change their own gold answer. Each item's `topic`
 * is kept as a metadata field.
 *
 * RULES: a rule is the line `- [topic: t<k>] questions: the answer is the title of the <first|second|third>
 * passage.` (`topicRule`). The correct one for t<k> names its gold position (`fixRule`).
 *
 * POLICY (`skillSensitiveAnswer`): for a question tagged `[topic: t<k>]`, the target answers the title of the
 * passage named by the FIRST rule for t<k> anywhere in its system prompt (i.e. in the skill, protected regions
 * included), and the first passage when there is none. Hence:
 * - baseline topics (k % 3 = 0: t0, t3, t6, …) are answered correctly with no rule at all;
 * - every other topic is wrong until its fix rule is in the skill, and right from then on (improvements);
 * - a rule for a topic with no items in the evaluated split, or a rule that restates the default (first
 *   passage for a baseline topic, the success analyst's reinforcing edit), changes no answer (ties);
 * - the DECOY for a baseline topic t<j> (`decoyRule`, "… third passage.") breaks every item of t<j>
 *   (regressions). The analyst proposes it after the fix when it reads a failing item carrying
 *   `(compare t<j>)`, so a lured minibatch's patch mixes a gain with a loss.
 * Untagged questions get the fake server's default answer (first `[TLE]` title or `[[ANSWER: …]]`), unless the skill
 * holds one of the SearchQA reading rules of fake-optimizer-searchqa.ts (the demo's world), which then decide.
 * The reply is `Topic t<k>: reading the <position> passage.\n<answer><title></answer>`.
 */
import type { DatasetItem } from "@/lib/datasets/types";
import { normalizeAnswer } from "@/lib/eval";
import { splitPassages } from "@/lib/prompts";
import { seededRandom } from "@/lib/stats/random";
import { defaultAnswer, questionOf, type FakeChatRequest } from "./fake-openai-server";
import { searchQaAnswer } from "./fake-optimizer-searchqa";

export const POSITIONS = ["first", "second", "third"] as const;
export type PassagePosition = (typeof POSITIONS)[number];

/** The heading the analyst inserts rules after when the skill has it (otherwise it appends them). */
export const TOPIC_RULES_HEADING = "## Topic rules";

const TOPIC_TAG = /\[topic: (t\d+)\]/;
const LURE = /\(compare (t\d+)\)/;
const RULE = /\[topic: (t\d+)\] questions: the answer is the title of the (first|second|third) passage\./g;

export function topicRule(topic: string, position: PassagePosition): string {
  return `- [topic: ${topic}] questions: the answer is the title of the ${position} passage.`;
}

export function topicIndex(topic: string): number {
  const match = /^t(\d+)$/.exec(topic);
  if (!match) throw new Error(`not a topic: ${topic}`);
  return Number(match[1]);
}

export function goldPositionOf(topic: string): PassagePosition {
  return POSITIONS[topicIndex(topic) % 3]!;
}

export function isBaselineTopic(topic: string): boolean {
  return goldPositionOf(topic) === "first";
}

/** The rule that makes every item of `topic` correct. */
export function fixRule(topic: string): string {
  return topicRule(topic, goldPositionOf(topic));
}

/** The harmful rule the analyst is lured into: a wrong position for `topic` (third for a baseline topic). */
export function decoyRule(topic: string): string {
  return topicRule(topic, POSITIONS[(POSITIONS.indexOf(goldPositionOf(topic)) + 2) % 3]!);
}

/** The topic tag of a question, and the topic its `(compare t<j>)` lure names. */
export function topicOf(question: string): string | undefined {
  return TOPIC_TAG.exec(question)?.[1];
}

export function lureOf(question: string): string | undefined {
  return LURE.exec(question)?.[1];
}

/** The first rule line for `topic` in `text` (the whole line, trimmed), and the position it names. */
export function ruleFor(text: string, topic: string): { line: string; position: PassagePosition } | undefined {
  for (const match of text.matchAll(RULE)) {
    if (match[1] !== topic) continue;
    const lineStart = text.lastIndexOf("\n", match.index) + 1;
    const lineEnd = text.indexOf("\n", match.index);
    return { line: text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).trim(), position: match[2] as PassagePosition };
  }
  return undefined;
}

/** The context of a rollout user prompt (`## Context\n…\n\n## Question\n…`). */
export function contextOf(userPrompt: string): string {
  const start = userPrompt.indexOf("## Context\n");
  if (start < 0) return "";
  const end = userPrompt.indexOf("\n\n## Question\n", start);
  return userPrompt.slice(start + "## Context\n".length, end < 0 ? undefined : end);
}

/** Which passage of a context has one of the gold answers as its title. */
export function goldPassagePosition(context: string, golds: readonly string[]): PassagePosition | undefined {
  const wanted = new Set(golds.map(normalizeAnswer));
  const index = splitPassages(context).findIndex((passage) => wanted.has(normalizeAnswer(passage.title)));
  return index >= 0 && index < POSITIONS.length ? POSITIONS[index] : undefined;
}

/** The target model: answers from the passage its skill's rule names (see the policy above). */
export function skillSensitiveAnswer(req: FakeChatRequest): string {
  // With refinement turns the last user message is the refinement request; the item is the one with a question.
  const itemPrompt = [...req.messages].reverse().find((m) => m.role === "user" && m.content.includes("## Question\n"))?.content ?? "";
  const question = questionOf([{ role: "user", content: itemPrompt }]);
  const topic = topicOf(question);
  const system = req.messages.filter((m) => m.role === "system").map((m) => m.content).join("\n");
  if (!topic) {
    const title = searchQaAnswer(system, question, contextOf(itemPrompt));
    return title === undefined ? defaultAnswer(req) : `Reading the passages for the answer.\n<answer>${title}</answer>`;
  }
  const position = ruleFor(system, topic)?.position ?? "first";
  const title = splitPassages(contextOf(itemPrompt))[POSITIONS.indexOf(position)]?.title || "unknown";
  return `Topic ${topic}: reading the ${position} passage.\n<answer>${title}</answer>`;
}

const COLOURS = ["Amber", "Cobalt", "Crimson", "Silver", "Ivory", "Jade", "Onyx", "Scarlet", "Golden", "Azure", "Umber", "Violet"];
const PLACES = ["Harbor", "Summit", "Archive", "Garden", "Bridge", "Tower", "Valley", "Market", "Lantern", "Quarry", "Meadow", "Citadel"];

export interface OptimizationDatasetOptions {
  size: number;
  /** Number of topics t0 … t<topics-1>; item i has topic i % topics. */
  topics: number;
  seed?: number;
  /** Chance that an item of a non-baseline topic carries a `(compare t<j>)` lure (default 0.25). */
  lureRate?: number;
}

/** Items for the policy above, in the shape `dataset import` reads (see datasetJsonl). */
export function optimizationDataset(options: OptimizationDatasetOptions): DatasetItem[] {
  const { size, topics, seed = 1, lureRate = 0.25 } = options;
  if (!(topics >= 1)) throw new Error("optimizationDataset: topics must be at least 1");
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const baselineTopics = Array.from({ length: topics }, (_, k) => `t${k}`).filter(isBaselineTopic);
  return Array.from({ length: size }, (_, i) => {
    const topic = `t${i % topics}`;
    // Three different places, so the three titles never normalise to the same answer.
    const places = [...PLACES];
    for (let p = 0; p < 3; p++) {
      const swap = p + Math.floor(random() * (places.length - p));
      [places[p], places[swap]] = [places[swap]!, places[p]!];
    }
    const titles = places.slice(0, 3).map((place) => `${pick(COLOURS)} ${place} ${i}`);
    const lure = !isBaselineTopic(topic) && random() < lureRate ? ` (compare ${pick(baselineTopics)})` : "";
    const context = titles.map((title) => `[DOC] [TLE] ${title} [PAR] Records of clue ${i} list ${title} among the ${topic} entries.`).join(" ");
    return {
      id: `opt-${String(i).padStart(4, "0")}`,
      question: `[topic: ${topic}] Which entry answers clue ${i}?${lure}`,
      context,
      answers: [titles[POSITIONS.indexOf(goldPositionOf(topic))]!],
      metadata: { topic },
    };
  });
}

/** Items as the JSONL file `dataset import` reads (metadata fields first, as `dataset export` writes them). */
export function datasetJsonl(items: readonly DatasetItem[]): string {
  return items.map((item) => JSON.stringify({ ...item.metadata, id: item.id, question: item.question, answers: item.answers, context: item.context })).join("\n") + "\n";
}
