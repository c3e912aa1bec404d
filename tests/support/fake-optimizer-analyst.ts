/**
 * The scripted analyst of the fake optimizer (fake-optimizer.ts): it reads the trajectories of the request the
 * loop built (lib/optimize/prompts/analyst.ts, trajectory.ts) and proposes topic rules
 * (fake-optimizer-target.ts) from what they show: each trajectory's question (topic tag, lure), gold answers
 * (its evaluation record) and passages (its target user prompt).
 *
 * Error analyst, per trajectory in order: the rule naming the passage whose title is the gold answer, as
 * `replace` of the skill's first rule for that topic when there is one (it is wrong, or the item would not have
 * failed), else `insert_after` the `## Topic rules` heading when the skill has it, else `append`; then, when
 * the question carries `(compare t<j>)` and the skill has no rule for t<j>, the decoy for t<j>. Edits are
 * de-duplicated by content and cut to the budget L, in that order.
 * A trajectory with no topic tag (a SearchQA item, the demo's world) gets the reading rules of
 * fake-optimizer-searchqa.ts that would have found its gold answer from the error analyst, and from the success
 * analyst the rule that restates what the target does (TITLE_AS_WRITTEN_RULE, once: it changes no answer).
 * Success analyst: one reinforcing rule, for the first trajectory whose topic has no rule yet (it restates
 * what the target already does, so it changes no answer), or no edit when every topic shown has a rule.
 */
import {
  contextOf,
  decoyRule,
  goldPassagePosition,
  lureOf,
  ruleFor,
  TOPIC_RULES_HEADING,
  topicOf,
  topicRule,
} from "./fake-optimizer-target";
import { searchQaProposals, TITLE_AS_WRITTEN_RULE } from "./fake-optimizer-searchqa";

export interface ProposedEdit {
  op: "append" | "insert_after" | "replace" | "delete";
  target?: string;
  content: string;
}

interface SeenTrajectory {
  id: string;
  question: string;
  golds: string[];
  context: string;
}

/** The text between `start` and the next `end` after it ("" when `start` is absent; to the end without `end`). */
export function between(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  if (from < 0) return "";
  const to = text.indexOf(end, from + start.length);
  return text.slice(from + start.length, to < 0 ? undefined : to);
}

/** The strings of a Python list repr of strings, as `pyRepr` writes gold answers (`['a', "b's"]`). */
function pyStringList(repr: string): string[] {
  return [...repr.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? m[2] ?? "").replace(/\\(.)/g, "$1"));
}

/** The trajectories shown after the `## Failed/Successful Trajectories (N total)` heading. */
function trajectoriesOf(user: string): SeenTrajectory[] {
  const budgetAt = Math.max(0, user.indexOf("## Edits Budget\n"));
  const heading = /\n## (?:Failed|Successful) Trajectories \(\d+ total\)\n/.exec(user.slice(budgetAt));
  if (!heading) return [];
  const body = user.slice(budgetAt + heading.index + heading[0].length);
  const headers = [...body.matchAll(/^### Trajectory \d+ \(id=(.*)\)$/gm)];
  return headers.map((header, i) => {
    const block = body.slice(header.index, headers[i + 1]?.index);
    const record = block.slice(block.lastIndexOf("[verification] [EVALUATION RESULT]\n"));
    return {
      id: header[1]!,
      question: /^Question: (.*)$/m.exec(record)?.[1] ?? "",
      golds: pyStringList(/^Gold answers: (.*)$/m.exec(record)?.[1] ?? ""),
      context: contextOf(between(block, "#### Target User Prompt\n", "\n[agent] ")),
    };
  });
}

function addRule(skill: string, rule: string): ProposedEdit {
  return skill.split("\n").some((line) => line.trim() === TOPIC_RULES_HEADING)
    ? { op: "insert_after", target: TOPIC_RULES_HEADING, content: rule }
    : { op: "append", content: rule };
}

/** The analyst's reply object for an analyst_error (failure) or analyst_success request's user message. */
export function analystReply(kind: "failure" | "success", user: string): Record<string, unknown> {
  const skill = between(user, "## Current Skill\n", "\n\n## Edits Budget\n");
  const budget = Number(/^Produce at most L=(-?\d+) edits\.$/m.exec(user)?.[1] ?? 0);
  const trajectories = trajectoriesOf(user);
  const edits: ProposedEdit[] = [];
  const counts = new Map<string, number>();
  const patterns: string[] = [];
  const propose = (edit: ProposedEdit) => {
    if (!edits.some((e) => e.content === edit.content)) edits.push(edit);
  };
  for (const trajectory of trajectories) {
    const topic = topicOf(trajectory.question);
    if (!topic) {
      // A SearchQA item with no topic tag (the demo's world): reading rules, from failures only.
      const found = searchQaProposals(skill, trajectory.question, trajectory.golds, trajectory.context);
      counts.set(found.type, (counts.get(found.type) ?? 0) + 1);
      if (kind === "failure") {
        for (const rule of found.remove) propose({ op: "delete", target: rule, content: "" });
        for (const rule of found.rules) propose(addRule(skill, rule));
      } else if (edits.length === 0 && !skill.includes(TITLE_AS_WRITTEN_RULE)) {
        patterns.push(`The answer was a passage title, as written (id=${trajectory.id}).`);
        propose(addRule(skill, TITLE_AS_WRITTEN_RULE));
      }
      continue;
    }
    const position = goldPassagePosition(trajectory.context, trajectory.golds);
    const type = !position ? "other" : ruleFor(skill, topic) ? "rule_wrong" : "rule_missing";
    counts.set(type, (counts.get(type) ?? 0) + 1);
    if (!position) continue;
    const rule = topicRule(topic, position);
    const existing = ruleFor(skill, topic);
    if (kind === "failure") {
      propose(existing ? { op: "replace", target: existing.line, content: rule } : addRule(skill, rule));
      const lure = lureOf(trajectory.question);
      if (lure && !ruleFor(skill, lure)) propose(addRule(skill, decoyRule(lure)));
    } else if (!existing) {
      patterns.push(`Answers taken from the ${position} passage were right for [topic: ${topic}] (id=${trajectory.id}).`);
      if (edits.length === 0) propose(addRule(skill, rule));
    }
  }
  const kept = edits.slice(0, Math.max(0, budget));
  const reasoning = kept.length === 0
    ? "The skill already covers what these trajectories show."
    : kept.every((e) => topicOf(e.content))
      ? `Rules for ${kept.map((e) => topicOf(e.content)).join(", ")}, each naming the passage whose title is the gold answer.`
      : `${kept.length} reading rule${kept.length === 1 ? "" : "s"} that would have found the gold answer among the passage titles.`;
  const patch = { reasoning, edits: kept };
  if (kind === "success") return { batch_size: trajectories.length, success_patterns: patterns, patch };
  const descriptions: Record<string, string> = {
    rule_missing: "No rule says which passage answers this topic; the first passage was used.",
    rule_wrong: "The topic's rule names the wrong passage.",
    other: "No topic tag, or no passage title matches the gold answer.",
    title_suffix: "The right passage was read, but its title kept a site or section suffix.",
    second_passage: "The answer is the second passage's title; the first passage is the question's own subject.",
    no_title: "No passage title is the answer.",
    last_passage: "The last-passage rule took the last passage; another passage's title was the answer.",
  };
  const failureSummary = [...counts].map(([type, count]) => ({ failure_type: type, count, description: descriptions[type] }));
  return { batch_size: trajectories.length, failure_summary: failureSummary, patch };
}
