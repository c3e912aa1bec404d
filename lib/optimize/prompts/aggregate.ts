/**
 * The aggregate stage's call sequence, patch mode: port of `_hierarchical_merge` and `merge_patches`
 * (skillopt/gradient/aggregate.py). The model call is injected, so the optimisation loop decides how a call is
 * made, stored and resumed; `callMerge` resolves to the reply parsed with upstream's JSON rules, or undefined
 * when the call failed or gave nothing parseable (both make upstream fall back).
 */
import type { PyJson } from "../../export/python-json";
import { buildFinalMergeRequest, buildMergeBatchRequest } from "./merge";
import {
  acceptFinalMergeReply,
  acceptMergeReply,
  finalMergeFallback,
  finalMergeShortcut,
  mergeFallback,
  mergeTreeShortcut,
  planMergeLevel,
} from "./merge-tree";
import type { OptimizerRequest } from "./request";

/** Where a merge call sits: the tree ("final" for the combine), the level and the batch's index in it. */
export interface MergeCallContext {
  group: "failure" | "success" | "final";
  level: number;
  batch: number;
}

export type CallMerge = (request: OptimizerRequest, context: MergeCallContext) => Promise<PyJson | undefined>;

export interface MergeSettings {
  skill: string;
  mergeBatchSize: number;
  metaSkill: string;
}

/** `_hierarchical_merge` of one tree. Calls of a level run concurrently, as upstream's do; results keep batch order. */
export async function mergeTree(
  group: "failure" | "success",
  patches: readonly PyJson[],
  settings: MergeSettings,
  callMerge: CallMerge,
): Promise<PyJson> {
  const shortcut = mergeTreeShortcut(patches);
  if (shortcut !== undefined) return shortcut;
  let current: readonly PyJson[] = patches;
  for (let level = 1; current.length > 1; level++) {
    const plan = planMergeLevel(current, settings.mergeBatchSize);
    current = await Promise.all(
      plan.map(async (batch, index) => {
        if (batch.passthrough) return batch.patches[0] as PyJson;
        const request = buildMergeBatchRequest({
          group,
          skill: settings.skill,
          patches: batch.patches,
          level,
          metaSkill: settings.metaSkill,
        });
        const reply = await callMerge(request, { group, level, batch: index });
        return acceptMergeReply(reply, level) ?? mergeFallback(batch.patches, level);
      }),
    );
  }
  return current[0] as PyJson;
}

/** `merge_patches`: the failure tree, the success tree, then (only when both have edits) the final combine. */
export async function mergePatches(
  failurePatches: readonly PyJson[],
  successPatches: readonly PyJson[],
  settings: MergeSettings,
  callMerge: CallMerge,
): Promise<PyJson> {
  const failureMerged = await mergeTree("failure", failurePatches, settings, callMerge);
  const successMerged = await mergeTree("success", successPatches, settings, callMerge);
  const shortcut = finalMergeShortcut(failureMerged, successMerged);
  if (shortcut !== undefined) return shortcut;
  const request = buildFinalMergeRequest({ skill: settings.skill, failureMerged, successMerged, metaSkill: settings.metaSkill });
  const reply = await callMerge(request, { group: "final", level: 0, batch: 0 });
  return acceptFinalMergeReply(reply) ?? finalMergeFallback(failureMerged, successMerged);
}
