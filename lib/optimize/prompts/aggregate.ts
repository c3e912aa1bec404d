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
import { payloadEdits } from "../ranking";

/** Where a merge call sits: the tree ("final" for the combine), the level and the batch's index in it. */
export interface MergeCallPlace {
  group: "failure" | "success" | "final";
  level: number;
  batch: number;
}

export interface MergeCallContext extends MergeCallPlace {
  /** The names of the patches the call merges (see MergeSettings.sources; empty without them). */
  inputs: readonly string[];
}

export type CallMerge = (request: OptimizerRequest, context: MergeCallContext) => Promise<PyJson | undefined>;

export interface MergeSettings {
  skill: string;
  mergeBatchSize: number;
  metaSkill: string;
  /**
   * Names for the tree's nodes, for the record only (what each call merged): each patch's, in patch order (its analyst
   * call), and a merge call's result's (its call). A patch carried to the next level alone keeps its name.
   */
  sources?: { failure: readonly string[]; success: readonly string[]; label(place: MergeCallPlace): string };
}

/** `_hierarchical_merge` of one tree. Calls of a level run concurrently, as upstream's do; results keep batch order. */
export async function mergeTree(
  group: "failure" | "success",
  patches: readonly PyJson[],
  settings: MergeSettings,
  callMerge: CallMerge,
): Promise<PyJson> {
  return (await namedMergeTree(group, patches, settings, callMerge)).merged;
}

/** mergeTree, with the name of its root (a merge call's, the only patch's, or "" for none). */
async function namedMergeTree(group: "failure" | "success", patches: readonly PyJson[], settings: MergeSettings, callMerge: CallMerge): Promise<{ merged: PyJson; name: string }> {
  let names: readonly string[] = settings.sources?.[group] ?? patches.map(() => "");
  const shortcut = mergeTreeShortcut(patches);
  if (shortcut !== undefined) return { merged: shortcut, name: names[0] ?? "" };
  let current: readonly PyJson[] = patches;
  for (let level = 1; current.length > 1; level++) {
    const plan = planMergeLevel(current, settings.mergeBatchSize);
    const inputs = names;
    names = plan.map((batch, index) => (batch.passthrough ? (inputs[batch.start] ?? "") : (settings.sources?.label({ group, level, batch: index }) ?? "")));
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
        const reply = await callMerge(request, { group, level, batch: index, inputs: inputs.slice(batch.start, batch.start + batch.patches.length) });
        return acceptMergeReply(reply, level) ?? mergeFallback(batch.patches, level);
      }),
    );
  }
  return { merged: current[0] as PyJson, name: names[0] ?? "" };
}

/** `merge_patches`: the failure tree, the success tree, then (only when both have edits) the final combine. */
export async function mergePatches(
  failurePatches: readonly PyJson[],
  successPatches: readonly PyJson[],
  settings: MergeSettings,
  callMerge: CallMerge,
): Promise<PyJson> {
  return (await namedMergePatches(failurePatches, successPatches, settings, callMerge)).merged;
}

/** mergePatches, with the name of the patch it ends with (the final merge call's, or the one tree root kept). */
export async function namedMergePatches(
  failurePatches: readonly PyJson[],
  successPatches: readonly PyJson[],
  settings: MergeSettings,
  callMerge: CallMerge,
): Promise<{ merged: PyJson; name: string }> {
  const failure = await namedMergeTree("failure", failurePatches, settings, callMerge);
  const success = await namedMergeTree("success", successPatches, settings, callMerge);
  const shortcut = finalMergeShortcut(failure.merged, success.merged);
  if (shortcut !== undefined) {
    const name = payloadEditsOf(success.merged) === 0 ? (payloadEditsOf(failure.merged) === 0 ? "" : failure.name) : success.name;
    return { merged: shortcut, name };
  }
  const request = buildFinalMergeRequest({ skill: settings.skill, failureMerged: failure.merged, successMerged: success.merged, metaSkill: settings.metaSkill });
  const place = { group: "final" as const, level: 0, batch: 0 };
  const reply = await callMerge(request, { ...place, inputs: [failure.name, success.name] });
  return { merged: acceptFinalMergeReply(reply) ?? finalMergeFallback(failure.merged, success.merged), name: settings.sources?.label(place) ?? "" };
}

const payloadEditsOf = (patch: PyJson) => payloadEdits(patch).length;
