/**
 * The ranking request of the select stage, patch mode. Port of the request half of `rank_and_select`
 * (skillopt/optimizer/clip.py) with prompts/ranking.md, and of `describe_item` (skillopt/optimizer/update_modes.py)
 * that lists each edit of the pool.
 */
import { isPyDict, type PyJson, pyGet, pyJsonRepr, pyJsonStr, pyTruthy } from "../../export/python-json";
import { withMetaSkillContext } from "./meta-skill-context";
import { optimizerRequest, type OptimizerRequest, skillOptTemplate } from "./request";

/**
 * `describe_item` in patch mode: `op=…`, then `target=` and `content=` as Python reprs when truthy, then
 * `support=…` when support_count is present and not None; two spaces between. A non-object edit is "".
 */
export function describeEdit(edit: PyJson): string {
  if (!isPyDict(edit)) return "";
  const parts = [`op=${pyJsonStr(pyGet(edit, "op", "?"))}`];
  const target = pyGet(edit, "target", "");
  if (pyTruthy(target)) parts.push(`target=${pyJsonRepr(target)}`);
  const content = pyGet(edit, "content", "");
  if (pyTruthy(content)) parts.push(`content=${pyJsonRepr(content)}`);
  const support = pyGet(edit, "support_count", null);
  if (support !== null) parts.push(`support=${pyJsonStr(support)}`);
  return parts.join("  ");
}

export interface RankingInput {
  skill: string;
  /** The merged patch's edits, in order (their 0-based positions are the indices the model returns). */
  edits: readonly PyJson[];
  /** The step's edit budget. */
  maxEdits: number;
  metaSkill: string;
}

/** The ranking request, or null when the pool is within budget (upstream then keeps the patch as is, no call). */
export function buildRankingRequest(input: RankingInput): OptimizerRequest | null {
  const { edits, maxEdits } = input;
  if (edits.length <= maxEdits) return null;
  const pool = edits.map((edit, i) => `[${i}] ${describeEdit(edit)}`);
  const user =
    `## Current Skill\n${input.skill}\n\n` +
    `## Edits Pool (${edits.length} edits, budget=${maxEdits})\n` +
    pool.join("\n") +
    `\n\nSelect the ${maxEdits} most important edits. ` +
    `Return their 0-based indices in priority order.`;
  return optimizerRequest("ranking", skillOptTemplate("ranking"), withMetaSkillContext(input.metaSkill, user));
}
