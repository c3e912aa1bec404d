/**
 * The merge requests of the aggregate stage, patch mode. Ports of `_merge_batch` (one call per batch of a
 * level of the failure or success tree) and the final combine in `merge_patches`
 * (skillopt/gradient/aggregate.py), with prompts merge_failure.md, merge_success.md and merge_final.md.
 */
import { type PyJson, pyJsonDumps } from "../../export/python-json";
import { withMetaSkillContext } from "./meta-skill-context";
import { payloadEdits } from "./merge-tree";
import { optimizerRequest, type OptimizerRequest, skillOptTemplate } from "./request";

export interface MergeBatchInput {
  /** Which tree the batch belongs to: failure patches merge with merge_failure.md, success with merge_success.md. */
  group: "failure" | "success";
  skill: string;
  /** The batch's patches exactly as upstream holds them (see merge-tree.ts), serialised with json.dumps(indent=2). */
  patches: readonly PyJson[];
  /** 1 for the first level of the tree. */
  level: number;
  metaSkill: string;
}

export function buildMergeBatchRequest(input: MergeBatchInput): OptimizerRequest {
  const patchesText = pyJsonDumps(input.patches, { indent: 2 });
  const user =
    `## Current Skill\n${input.skill}\n\n` +
    `## Patches to merge (${input.patches.length} total, merge level ${input.level})\n${patchesText}`;
  const system = skillOptTemplate(input.group === "failure" ? "merge_failure" : "merge_success");
  return optimizerRequest("merge", system, withMetaSkillContext(input.metaSkill, user));
}

export interface FinalMergeInput {
  skill: string;
  /** The failure tree's result and the success tree's, each with at least one edit (upstream calls only then). */
  failureMerged: PyJson;
  successMerged: PyJson;
  metaSkill: string;
}

export function buildFinalMergeRequest(input: FinalMergeInput): OptimizerRequest {
  const combinedText = pyJsonDumps([input.failureMerged, input.successMerged], { indent: 2 });
  const user =
    `## Current Skill\n${input.skill}\n\n` +
    `## Two pre-merged patch groups to combine\n` +
    `Group 1 (failure-driven, HIGH priority): ${payloadEdits(input.failureMerged).length} edits\n` +
    `Group 2 (success-driven, lower priority): ${payloadEdits(input.successMerged).length} edits\n\n` +
    combinedText;
  return optimizerRequest("merge", skillOptTemplate("merge_final"), withMetaSkillContext(input.metaSkill, user));
}
