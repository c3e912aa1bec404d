/**
 * ① ROLLOUT and ② REFLECT of one accumulation batch: the batch rolled out with the current skill, its trajectories
 * cut into minibatches (batches.ts) and one analyst call per minibatch (skillopt/gradient/reflect.py
 * `run_minibatch_reflect`). Patches are listed failure minibatches first, then success ones, each in minibatch order:
 * what upstream's `as_completed` gives with one worker.
 */
import type { PyJson } from "../../export/python-json";
import type { ItemResult } from "../../runs/types";
import { planMinibatches } from "../batches";
import { buildAnalystRequest } from "../prompts/analyst";
import { BatchSizeError, normalisePatches } from "../prompts/merge-tree";
import { analystTrajectory } from "../prompts/trajectory";
import { analystCallKey } from "./keys";
import { parseAnalystReply } from "./replies";
import type { LoopContext } from "./state";

type PyDict = { readonly [key: string]: PyJson };

export interface ReflectedPatch {
  /** The analyst call that produced it and the items of its minibatch. */
  call: string;
  kind: "failure" | "success";
  itemIds: string[];
  raw: PyDict;
  /** The saved patch file's place, for the step buffer's failure descriptions (`minibatch_fail_NNN.json`). */
  minibatch: number;
}

export interface BatchReflection {
  rows: ItemResult[];
  patches: ReflectedPatch[];
  failure: PyDict[];
  success: PyDict[];
  /** The analyst call of each failure / success patch, in the same order (the merge tree's leaves). */
  failureCalls: string[];
  successCalls: string[];
  /** Patches dropped where upstream's trainer would crash (a non-numeric batch_size), with why. */
  dropped: string[];
}

export async function reflectBatch(
  ctx: LoopContext,
  input: { stageKey: string; batchIndex: number; rows: ItemResult[]; systemPrompt: string; seed: number; skill: string; stepBuffer: string; metaSkill: string },
): Promise<BatchReflection> {
  const { gradient, optimizer } = ctx.settings;
  const groups = planMinibatches(input.rows, { failureOnly: gradient.failure_only, minibatchSize: gradient.minibatch_size, seed: input.seed });
  const jobs = [
    ...groups.failure.map((rows, index) => ({ kind: "failure" as const, rows, index })),
    ...groups.success.map((rows, index) => ({ kind: "success" as const, rows, index })),
  ];
  const editBudget = optimizer.learning_rate;
  const results = await Promise.all(
    jobs.map(async (job) => {
      const request = buildAnalystRequest({
        kind: job.kind,
        skill: input.skill,
        editBudget,
        stepBuffer: input.stepBuffer,
        metaSkill: input.metaSkill,
        trajectories: job.rows.map((row) => analystTrajectory(row, input.systemPrompt)),
      });
      if (!request) return null;
      const key = analystCallKey(input.stageKey, input.batchIndex, job.kind, job.index);
      const itemIds = job.rows.map((row) => row.itemId);
      const reply = await ctx.io.callOptimizer({ key, stageKey: input.stageKey, request, minibatch: job.index, itemIds });
      const raw = parseAnalystReply(reply, job.kind, editBudget);
      return raw ? { call: key, kind: job.kind, itemIds, raw, minibatch: job.index } : null;
    }),
  );
  const patches = results.filter((patch): patch is ReflectedPatch => patch !== null);
  const failure: PyDict[] = [];
  const success: PyDict[] = [];
  const failureCalls: string[] = [];
  const successCalls: string[] = [];
  const dropped: string[] = [];
  for (const patch of patches) {
    try {
      const normalised = normalisePatches([patch.raw]);
      failure.push(...normalised.failure);
      success.push(...normalised.success);
      failureCalls.push(...normalised.failure.map(() => patch.call));
      successCalls.push(...normalised.success.map(() => patch.call));
    } catch (error) {
      if (!(error instanceof BatchSizeError)) throw error;
      // DEVIATION: upstream's trainer crashes here; Skillboard drops this patch, says so and goes on.
      dropped.push(`${patch.call}: ${error.message} (upstream would stop the optimisation here)`);
    }
  }
  return { rows: input.rows, patches, failure, success, failureCalls, successCalls, dropped };
}
