/**
 * The fake server as the optimizer model too: `optimizerAnswer` is one `answer` for startFakeOpenAIServer that
 * plays SkillOpt's optimizer roles and, for every other request, the skill-sensitive target
 * (fake-optimizer-target.ts documents the dataset, the rules, the decoy and the policy).
 *
 * Roles are told apart by the system message, compared whole with the upstream templates the request builders
 * send (prompts/skillopt/*.md); a request whose system message is none of them is a target request.
 *
 * Replies, each in the schema its prompt demands (the keys upstream reads):
 * - analyst_error / analyst_success: `{batch_size, failure_summary | success_patterns, patch: {reasoning,
 *   edits}}`, edits derived from the trajectories shown (fake-optimizer-analyst.ts).
 * - merge_failure / merge_success: `{reasoning, edits}`, the incoming patches' edits in order, de-duplicated by
 *   content (a delete by target), each with the summed support_count and the tree's source_type.
 * - merge_final: the same over group 1 then group 2, keeping each edit's source_type (the failure one on a tie).
 * - ranking: `{reasoning, selected_indices}`, the pool's indices by support (highest first, then pool order),
 *   cut to the budget.
 * - slow_update: `{reasoning, slow_update_content}`; meta_skill: `{reasoning, meta_skill_content}`; both read
 *   the comparison's counts and regressed topics, and name no rule (so they change no answer); for untagged
 *   SearchQA items (fake-optimizer-searchqa.ts) they speak of reading rules instead of topics.
 * About one well-formed reply in four is wrapped in prose and a ```json fence, as chat models do.
 *
 * MALFORMED replies: a request is answered malformed when a hash of its messages is divisible by
 * `malformedOneIn` (default 7; 0 turns them off). Chosen by content, not call order, so concurrent calls and a
 * resumed optimisation see the same replies. The variant, also by hash: prose with no JSON, the JSON cut off
 * halfway, or JSON with a wrong type where upstream checks it (analyst edits a string, merge edits strings,
 * ranking indices a string, slow-update / meta-skill content null). Each leads upstream to its fallback.
 */
import { isPyDict, PyFloat, type PyJson, pyGet } from "@/lib/export/python-json";
import { pyJsonLoads } from "@/lib/optimize/py-json";
import { skillOptTemplate, type SkillOptTemplate } from "@/lib/optimize/prompts/request";
import type { FakeChatRequest } from "./fake-openai-server";
import { analystReply, between } from "./fake-optimizer-analyst";
import { skillSensitiveAnswer, topicOf } from "./fake-optimizer-target";

export type OptimizerRole = SkillOptTemplate;

const ROLES: readonly OptimizerRole[] = [
  "analyst_error", "analyst_success", "merge_failure", "merge_success", "merge_final", "ranking", "slow_update", "meta_skill",
];

let roleBySystem: Map<string, OptimizerRole> | undefined;

/** The optimizer role of a request, from its system message; undefined for a target (rollout) request. */
export function optimizerRoleOf(req: FakeChatRequest): OptimizerRole | undefined {
  const system = req.messages.find((message) => message.role === "system")?.content;
  if (system === undefined) return undefined;
  roleBySystem ??= new Map(ROLES.map((role) => [skillOptTemplate(role), role]));
  return roleBySystem.get(system);
}

export interface FakeOptimizerOptions {
  /** About one optimizer reply in this many is malformed, chosen by a hash of the request (default 7); 0: never. */
  malformedOneIn?: number;
}

/** One server, both models: optimizer roles get `optimizerReply`, everything else the skill-sensitive target. */
export function optimizerAnswer(req: FakeChatRequest, options: FakeOptimizerOptions = {}): string {
  return optimizerRoleOf(req) ? optimizerReply(req, options) : skillSensitiveAnswer(req);
}

/** FNV-1a over the messages, then murmur3's finaliser so the low bits (used for `% n`) are well mixed. */
export function requestHash(req: FakeChatRequest): number {
  let h = 0x811c9dc5;
  for (const message of req.messages) {
    for (const ch of `${message.role}\u0000${message.content}\u0001`) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193);
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Whether `optimizerReply` answers this request malformed. */
export function isMalformedFor(req: FakeChatRequest, options: FakeOptimizerOptions = {}): boolean {
  const oneIn = options.malformedOneIn ?? 7;
  return oneIn > 0 && requestHash(req) % oneIn === 0;
}

/** The scripted optimizer's reply text to an optimizer request (throws for a target request). */
export function optimizerReply(req: FakeChatRequest, options: FakeOptimizerOptions = {}): string {
  const role = optimizerRoleOf(req);
  if (!role) throw new Error("optimizerReply: not an optimizer request (its system message is no SkillOpt template)");
  const user = [...req.messages].reverse().find((message) => message.role === "user")?.content ?? "";
  const reply = REPLIES[role](user);
  const hash = requestHash(req);
  const json = JSON.stringify(reply, null, 2);
  if (isMalformedFor(req, options)) {
    const variant = (hash >>> 8) % 3;
    if (variant === 0) return `I looked at the ${role.replace("_", " ")} request but cannot give a structured answer this time.`;
    if (variant === 1) return json.slice(0, Math.floor(json.length / 2));
    return JSON.stringify(WRONG_TYPE[role](reply), null, 2);
  }
  return (hash >>> 16) % 4 === 0 ? `Here is the result.\n\`\`\`json\n${json}\n\`\`\`\n` : json;
}

type Reply = Record<string, unknown>;

const REPLIES: Record<OptimizerRole, (user: string) => Reply> = {
  analyst_error: (user) => analystReply("failure", user),
  analyst_success: (user) => analystReply("success", user),
  merge_failure: (user) => mergeReply(mergeBatchPatches(user), "failure"),
  merge_success: (user) => mergeReply(mergeBatchPatches(user), "success"),
  merge_final: (user) => mergeReply(finalMergeGroups(user), undefined),
  ranking: rankingReply,
  slow_update: (user) => {
    const { summary, regressedTopics } = comparisonOf(user);
    const recheck = regressedTopics.length > 0 ? ` Re-check your reading for topics ${regressedTopics.join(", ")}: they regressed.` : "";
    return {
      reasoning: `Longitudinal comparison: ${summary}.`,
      slow_update_content: user.includes("[topic: ")
        ? `Keep the topic rules that turned wrong answers into right ones.${recheck} When no rule names a question's topic, read the first passage.`
        : "Keep the reading rules that turned wrong answers into right ones. Answer with a passage title exactly as the rules say.",
    };
  },
  meta_skill: (user) => {
    const { summary, regressedTopics } = comparisonOf(user);
    return {
      reasoning: `Across the epoch: ${summary}.`,
      meta_skill_content: user.includes("[topic: ")
        ? "Derive each topic rule from the passage whose title is the gold answer; one rule per topic. " +
          `Do not add rules for topics a question only cross-references${regressedTopics.length > 0 ? ` (they broke ${regressedTopics.join(", ")})` : ""}.`
        : "Propose a reading rule only when the gold answer is a passage title the rule would find; a guess about where answers hide breaks the items it was not made from.",
    };
  },
};

const WRONG_TYPE: Record<OptimizerRole, (reply: Reply) => Reply> = {
  analyst_error: (reply) => ({ ...reply, patch: { reasoning: "see below", edits: editsOf(reply.patch).map((e) => e.content).join("\n") } }),
  analyst_success: (reply) => WRONG_TYPE.analyst_error(reply),
  merge_failure: (reply) => ({ ...reply, edits: editsOf(reply).map((e) => `${e.op}: ${e.content ?? e.target}`) }),
  merge_success: (reply) => WRONG_TYPE.merge_failure(reply),
  merge_final: (reply) => WRONG_TYPE.merge_failure(reply),
  ranking: (reply) => ({ ...reply, selected_indices: (reply.selected_indices as number[]).join(", ") }),
  slow_update: (reply) => ({ ...reply, slow_update_content: null }),
  meta_skill: (reply) => ({ ...reply, meta_skill_content: null }),
};

interface MergedEdit {
  op: string;
  target?: string;
  content?: string;
  support_count: number;
  source_type: string;
}

function editsOf(container: unknown): Partial<MergedEdit>[] {
  const edits = (container as { edits?: unknown } | null)?.edits;
  return Array.isArray(edits) ? (edits as Partial<MergedEdit>[]) : [];
}

/** The JSON after a header line of a merge request (upstream's json.dumps, read back with its own rules). */
function jsonAfter(user: string, header: string, skipLines = 0): PyJson {
  const lines = between(user, header, "\u0000").split("\n").slice(1 + skipLines);
  return pyJsonLoads(lines.join("\n"));
}

function mergeBatchPatches(user: string): { patches: PyJson[]; level: number } {
  const level = Number(/^## Patches to merge \(\d+ total, merge level (\d+)\)$/m.exec(user)?.[1] ?? 1);
  return { patches: jsonAfter(user, "## Patches to merge (") as PyJson[], level };
}

function finalMergeGroups(user: string): { patches: PyJson[]; level: number } {
  // Header, "Group 1 …", "Group 2 …", a blank line, then the two groups as one JSON list.
  return { patches: jsonAfter(user, "## Two pre-merged patch groups to combine", 3) as PyJson[], level: 0 };
}

function asNumber(value: PyJson): number {
  if (typeof value === "number") return value;
  if (value instanceof PyFloat) return value.value;
  return 1;
}

function mergeReply({ patches, level }: { patches: PyJson[]; level: number }, group: "failure" | "success" | undefined): Reply {
  const merged: MergedEdit[] = [];
  for (const patch of patches) {
    const edits = isPyDict(patch) ? pyGet(patch, "edits", []) : [];
    for (const edit of Array.isArray(edits) ? (edits as PyJson[]) : []) {
      if (!isPyDict(edit)) continue;
      const op = String(pyGet(edit, "op", "append"));
      const target = pyGet(edit, "target", null);
      const content = pyGet(edit, "content", null);
      const support = asNumber(pyGet(edit, "support_count", 1));
      const key = op === "delete" ? `delete\u0000${String(target)}` : String(content);
      const same = merged.find((m) => (m.op === "delete" ? `delete\u0000${m.target}` : String(m.content)) === key);
      if (same) {
        same.support_count += support;
        continue;
      }
      merged.push({
        op,
        ...(typeof target === "string" && target !== "" ? { target } : {}),
        ...(typeof content === "string" ? { content } : {}),
        support_count: support,
        source_type: group ?? String(pyGet(edit, "source_type", "failure")),
      });
    }
  }
  const what = group === undefined ? "final merge: failure edits first, success edits kept where new" : `${group} merge at level ${level}`;
  return { reasoning: `${what}; ${merged.length} distinct edits from ${patches.length} patches.`, edits: merged };
}

function rankingReply(user: string): Reply {
  const budget = Number(/^## Edits Pool \(\d+ edits, budget=(-?\d+)\)$/m.exec(user)?.[1] ?? 0);
  const pool = [...user.matchAll(/^\[(\d+)\] op=.*$/gm)].map((m) => ({
    index: Number(m[1]),
    support: Number(/ {2}support=(\d+)$/.exec(m[0])?.[1] ?? 1),
  }));
  const ranked = [...pool].sort((a, b) => b.support - a.support || a.index - b.index).slice(0, Math.max(0, budget));
  return {
    reasoning: `Kept the ${ranked.length} best-supported of ${pool.length} edits.`,
    selected_indices: ranked.map((edit) => edit.index),
  };
}

/** The comparison's counts line and the topics of its regressed tasks. */
function comparisonOf(user: string): { summary: string; regressedTopics: string[] } {
  const count = (label: string) => Number(new RegExp(`^- ${label} \\([^)]*\\): (\\d+)$`, "m").exec(user)?.[1] ?? 0);
  const regressions = between(user, "### Regressions (right→wrong)", "\n### Persistent Failures");
  const regressedTopics = [...new Set([...regressions.matchAll(/^#### Task .*$/gm)].map((m) => topicOf(m[0])).filter((t) => t !== undefined))];
  return {
    summary: `${count("Improved")} improved, ${count("Regressed")} regressed, ${count("Persistent failures")} still failing, ${count("Stable successes")} stable`,
    regressedTopics,
  };
}
