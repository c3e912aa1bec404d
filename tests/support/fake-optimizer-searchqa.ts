/**
 * The fake optimisation world for SearchQA-style items with no topic tag (the demo dataset, prisma/demo/): the
 * scripted target answers with a passage title, and three reading rules in its system prompt (the skill) change
 * which title and how, so the scripted analyst's edits move scores on real-looking questions too. The demo
 * optimisation (scripts/record-demo-optimization.ts) is recorded in this world.
 *
 * POLICY (`searchQaAnswer`), for a question without `[topic: …]` whose system prompt holds at least one rule:
 * - start from the first passage;
 * - NEXT_PASSAGE_RULE: when the question names the first passage's subject (its title, suffix dropped), take the second;
 * - LAST_PASSAGE_RULE (the decoy): with four or more passages, take the last one (it is never better; it breaks
 *   items whose answer is the first of many passages);
 * - STRIP_SUFFIX_RULE: answer the title without a site or section suffix (" - Wikipedia", " | Switzerland Tourism").
 * With none of the rules in the prompt it gives the fake server's default answer (the first passage's title).
 *
 * ANALYST (`searchQaProposals`), per failing trajectory: the rule that would have found its gold answer among the
 * passage titles (STRIP_SUFFIX_RULE when the gold is a title without its suffix, NEXT_PASSAGE_RULE when it is the
 * second passage's title and the question names the first); when no title is the answer, the decoy (a guess that
 * the answer hides in the last passage); when the decoy in the skill took the last passage and the answer was another
 * one's title, a `delete` of the decoy. Rules the skill already has are not proposed again.
 */
import { normalizeAnswer } from "@/lib/eval";
import { splitPassages } from "@/lib/prompts";

export const STRIP_SUFFIX_RULE = "- Answer with the passage title alone: drop a site or section suffix after \" - \" or \" | \" (\"Zürich - Wikipedia\" → Zürich).";
export const NEXT_PASSAGE_RULE = "- When the question names the subject of the first passage, the answer is the title of the second passage.";
export const LAST_PASSAGE_RULE = "- With four or more passages, the answer is the title of the last passage (the most specific one).";

/** What the success analyst proposes: it restates what the target already does, so it changes no answer. */
export const TITLE_AS_WRITTEN_RULE = "- Answer with one passage title, as the passage writes it.";

const RULES = [STRIP_SUFFIX_RULE, NEXT_PASSAGE_RULE, LAST_PASSAGE_RULE];

export const stripSuffix = (title: string): string => title.split(/ [-|] /)[0]!.trim();

function namesFirstSubject(question: string, titles: readonly string[]): boolean {
  const subject = titles[0] ? normalizeAnswer(stripSuffix(titles[0])) : "";
  return subject !== "" && ` ${normalizeAnswer(question)} `.includes(` ${subject} `);
}

/** The target's answer title under the rules in `system`, or undefined when it holds none of them. */
export function searchQaAnswer(system: string, question: string, context: string): string | undefined {
  if (!RULES.some((rule) => system.includes(rule))) return undefined;
  const titles = splitPassages(context).map((passage) => passage.title);
  let index = 0;
  if (system.includes(NEXT_PASSAGE_RULE) && titles.length > 1 && namesFirstSubject(question, titles)) index = 1;
  if (system.includes(LAST_PASSAGE_RULE) && titles.length >= 4) index = titles.length - 1;
  const title = titles[index] ?? "unknown";
  return system.includes(STRIP_SUFFIX_RULE) ? stripSuffix(title) : title;
}

export type SearchQaFailure = "title_suffix" | "second_passage" | "last_passage" | "no_title" | "other";

/**
 * What the failure analyst proposes for one failing trajectory: rules the skill lacks (`rules`), rules of the skill that
 * made it fail (`remove`), and how it names the failure.
 */
export function searchQaProposals(skill: string, question: string, golds: readonly string[], context: string): { type: SearchQaFailure; rules: string[]; remove: string[] } {
  const titles = splitPassages(context).map((passage) => passage.title);
  const wanted = new Set(golds.map(normalizeAnswer));
  const is = (title: string | undefined) => title !== undefined && wanted.has(normalizeAnswer(title));
  const missing = (rules: string[]) => rules.filter((rule) => !skill.includes(rule));
  const at = titles.findIndex((title) => is(title) || is(stripSuffix(title)));
  if (at < 0) return titles.length > 0 ? { type: "no_title", rules: missing([LAST_PASSAGE_RULE]), remove: [] } : { type: "other", rules: [], remove: [] };
  // The decoy took the last of four or more passages, and the answer was another one's title.
  if (skill.includes(LAST_PASSAGE_RULE) && titles.length >= 4 && at < titles.length - 1) return { type: "last_passage", rules: [], remove: [LAST_PASSAGE_RULE] };
  const rules: string[] = [];
  if (!is(titles[at])) rules.push(STRIP_SUFFIX_RULE);
  if (at === 1 && namesFirstSubject(question, titles)) rules.push(NEXT_PASSAGE_RULE);
  return { type: at === 1 ? "second_passage" : rules.length > 0 ? "title_suffix" : "other", rules: missing(rules), remove: [] };
}
