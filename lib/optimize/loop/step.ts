/**
 * One training step, patch mode: trainer.py's ① ROLLOUT … ⑥ EVALUATE and the step buffer, with upstream's record keys.
 * Manual approval (a Skillboard addition) sits between the gate and the state update.
 */
import { isPyDict, type PyJson, pyJsonStr } from "../../export/python-json";
import type { ItemResult } from "../../runs/types";
import type { TrainBatch } from "../batches";
import { applyPatchWithReport, type EditReport } from "../edits";
import { extractJson } from "../extract-json";
import { computeScore, type GateResult, skillHash } from "../gate";
import { namedMergePatches, type MergeCallPlace } from "../prompts/aggregate";
import { buildRankingRequest } from "../prompts/ranking";
import { extractFailurePatterns, failurePatchPath, formatStepBuffer, type StepBufferEntry } from "../prompts/step-buffer";
import { UpstreamCrashError } from "../py-values";
import { payloadEdits, rankAndSelect } from "../ranking";
import { LoopPaused, type StageEdit, type StageRecord } from "./io";
import { mergeCallKey, rankingCallKey, stepKey } from "./keys";
import { currentPairing, decideGate, gateRecord, valScore, type GateDecision } from "./evaluate";
import { reflectBatch, type BatchReflection } from "./reflect";
import { isFailure, stateSummary, type LoopContext, type LoopState } from "./state";

type PyDict = { readonly [key: string]: PyJson };
const ACCEPTED = new Set(["accept", "accept_new_best", "force_accept"]);
const round = (x: number, digits: number) => Number(x.toFixed(digits));

function parsedOrUndefined(reply: string | undefined): PyJson | undefined {
  if (reply === undefined) return undefined;
  try {
    return extractJson(reply) ?? undefined;
  } catch (error) {
    if (error instanceof UpstreamCrashError) return undefined;
    throw error;
  }
}

export interface StepInput {
  epoch: number;
  stepInEpoch: number;
  globalStep: number;
  batches: readonly TrainBatch<string>[];
  metaSkill: string;
}

export async function runStep(ctx: LoopContext, state: LoopState, input: StepInput): Promise<void> {
  const { io, settings } = ctx;
  const key = stepKey(input.globalStep);
  const started = performance.now();
  const record: Record<string, unknown> = { step: input.globalStep, epoch: input.epoch, step_in_epoch: input.stepInEpoch, timing: {}, tokens: {} };
  const timing = record.timing as Record<string, number>;
  const stepBuffer = formatStepBuffer(state.stepBuffer);
  const accumulation = settings.train.accumulation;

  const reflections: BatchReflection[] = [];
  const batchItemIds: string[][] = [];
  const accumStats: Record<string, unknown>[] = [];
  let rolloutS = 0;
  let reflectS = 0;
  for (let a = 0; a < accumulation; a++) {
    const batch = input.batches[input.stepInEpoch * accumulation + a]!;
    batchItemIds.push([...batch.items]);
    let phase = performance.now();
    const rollout = await io.rollout({ key: `${key}/rollout/${a}`, skill: state.currentSkill, split: "train", itemIds: batch.items });
    rolloutS += (performance.now() - phase) / 1000;
    const { hard, soft } = computeScore(rollout.rows);
    io.log(`[optimize] epoch ${input.epoch} step ${input.globalStep}/${ctx.totalSteps} rollout ${rollout.rows.length} items hard ${hard.toFixed(3)}`);
    phase = performance.now();
    const reflection = await reflectBatch(ctx, {
      stageKey: key, batchIndex: a, rows: rollout.rows, systemPrompt: rollout.systemPrompt, seed: batch.seed,
      skill: state.currentSkill, stepBuffer, metaSkill: input.metaSkill,
    });
    reflectS += (performance.now() - phase) / 1000;
    reflection.dropped.forEach((line) => io.log(`[optimize] ${line}`));
    reflections.push(reflection);
    accumStats.push({
      batch_idx: a, batch_seed: batch.seed, n_envs: rollout.rows.length, hard, soft,
      n_failure_patches: reflection.failure.length, n_success_patches: reflection.success.length,
    });
  }
  const allRows = reflections.flatMap((reflection) => reflection.rows);
  const failurePatches = reflections.flatMap((reflection) => reflection.failure);
  const successPatches = reflections.flatMap((reflection) => reflection.success);
  const totalN = allRows.length;
  const aggHard = accumStats.reduce((sum, b) => sum + (b.hard as number) * (b.n_envs as number), 0) / Math.max(totalN, 1);
  const aggSoft = accumStats.reduce((sum, b) => sum + (b.soft as number) * (b.n_envs as number), 0) / Math.max(totalN, 1);
  Object.assign(record, {
    rollout_hard: round(aggHard, 6), rollout_soft: round(aggSoft, 6), rollout_n: totalN, accumulation_batches: accumStats,
    n_patches: failurePatches.length + successPatches.length, n_failure_patches: failurePatches.length, n_success_patches: successPatches.length,
  });
  timing.rollout_s = round(rolloutS, 1);
  timing.reflect_s = round(reflectS, 1);

  const base = { key, kind: "step" as const, epoch: input.epoch, globalStep: input.globalStep, batchItemIds };
  if (failurePatches.length === 0 && successPatches.length === 0) {
    Object.assign(record, { action: "skip_no_patches", current_score: state.currentScore, best_score: state.bestScore, best_step: state.bestStep, skill_len: state.currentSkill.length, wall_time_s: round((performance.now() - started) / 1000, 1) });
    finishStep(state, input, record);
    io.log(`[optimize] epoch ${input.epoch} step ${input.globalStep}/${ctx.totalSteps} no usable patches: skill unchanged`);
    await io.saveStage({ ...base, action: "skip_no_patches", record, currentSkill: state.currentSkill, bestSkill: state.bestSkill, state: stateSummary(state) });
    return;
  }

  let phase = performance.now();
  const sources = {
    failure: reflections.flatMap((reflection) => reflection.failureCalls),
    success: reflections.flatMap((reflection) => reflection.successCalls),
    label: (where: MergeCallPlace) => mergeCallKey(key, where.group, where.level, where.batch),
  };
  const mergeSettings = { skill: state.currentSkill, mergeBatchSize: settings.gradient.merge_batch_size, metaSkill: input.metaSkill, sources };
  const { merged, name: mergedName } = await namedMergePatches(failurePatches, successPatches, mergeSettings, async (request, where) => {
    const reply = await io.callOptimizer({ key: mergeCallKey(key, where.group, where.level, where.batch), stageKey: key, request, mergeLevel: where.level, inputKeys: where.inputs });
    return parsedOrUndefined(reply);
  });
  const mergedItems = payloadEdits(merged);
  record.n_edits_merged = mergedItems.length;
  timing.aggregate_s = round((performance.now() - phase) / 1000, 1);

  phase = performance.now();
  const editBudget = state.scheduler.step();
  const rankingRequest = buildRankingRequest({ skill: state.currentSkill, edits: mergedItems, maxEdits: editBudget, metaSkill: input.metaSkill });
  const rankingReply = rankingRequest ? await io.callOptimizer({ key: rankingCallKey(key), stageKey: key, request: rankingRequest, inputKeys: mergedName ? [mergedName] : [] }) : undefined;
  const ranked = rankAndSelect(merged, editBudget, rankingReply);
  const rankedItems = payloadEdits(ranked);
  Object.assign(record, { n_edits_ranked: rankedItems.length, edit_budget: editBudget, lr_control_mode: settings.optimizer.lr_control_mode });
  timing.select_s = round((performance.now() - phase) / 1000, 1);
  record.support_counts = rankedItems.filter(isPyDict).map((item) => (item as PyDict).support_count ?? 0);

  phase = performance.now();
  const { skill: candidateSkill, reports } = applyPatchWithReport(state.currentSkill, ranked);
  Object.assign(record, { candidate_hash: skillHash(candidateSkill), candidate_skill_len: candidateSkill.length });
  if (reports.length > 0) {
    record.edit_apply_summary = {
      total: reports.length,
      applied: reports.filter((r) => r.status.startsWith("applied")).length,
      skipped: reports.filter((r) => r.status.startsWith("skipped")).length,
      errors: reports.filter((r) => r.status === "error").length,
    };
  }
  timing.update_s = round((performance.now() - phase) / 1000, 1);

  phase = performance.now();
  const origin = { parentSkill: state.currentSkill, stageKey: key };
  const candidate = await valScore(ctx, state, candidateSkill, `${key}/selection`, origin);
  Object.assign(record, { selection_hard: candidate.hard, selection_soft: candidate.soft });
  const scoreBefore = state.currentScore;
  const edits = stageEdits(rankedItems, reports, reflections);
  const stage: StageRecord = {
    ...base, candidateSkill, parentSkill: state.currentSkill, editBudget, record, edits,
    currentSkill: state.currentSkill, bestSkill: state.bestSkill, state: stateSummary(state),
  };
  const pairing = await currentPairing(ctx, state, key);
  let decision = decideGate(ctx, state, candidateSkill, candidate, input.globalStep, pairing);
  let gate: Record<string, unknown> = gateRecord(decision, candidate, scoreBefore);
  let decidedSkill = candidateSkill;

  if (settings.skillboard.approval === "manual" && decision.result.action !== "reject" && decision.rule !== "none") {
    const approval = await io.approval(key);
    if (approval.decision === "none" || approval.decision === "pending") {
      if (approval.decision === "none") await io.requestApproval({ ...stage, action: "waiting_for_approval", gate });
      throw new LoopPaused(key);
    }
    if (approval.decision === "rejected") {
      decision = { ...decision, result: { ...decision.result, ...gateStateOf(state), action: "reject" } };
      gate = { ...gate, action: "reject", approval: "rejected" };
    } else if (approval.decision === "edited") {
      // A candidate changed by a person is scored and gated again; the gate's answer stands.
      decidedSkill = approval.skill;
      const edited = await valScore(ctx, state, decidedSkill, `${key}/selection/edited`, origin);
      decision = decideGate(ctx, state, decidedSkill, edited, input.globalStep, pairing);
      gate = { ...gateRecord(decision, edited, scoreBefore), approval: "edited", proposed: gate };
      Object.assign(record, { selection_hard: edited.hard, selection_soft: edited.soft, candidate_hash: skillHash(decidedSkill) });
    } else {
      gate = { ...gate, approval: "approved" };
    }
  }
  applyGate(state, decision, input.globalStep, key);
  Object.assign(record, { gate_metric: settings.evaluation.gate_metric, candidate_gate_score: decision.candidateGateScore, action: decision.result.action });
  timing.evaluate_s = round((performance.now() - phase) / 1000, 1);
  const verdict = { accept_new_best: "accepted (new best)", accept: "accepted", force_accept: "force-accepted (gate off)", reject: "rejected" }[decision.result.action];
  io.log(`[optimize] epoch ${input.epoch} step ${input.globalStep}/${ctx.totalSteps} val ${fmt(scoreBefore)} → ${fmt(decision.candidateGateScore)} ${verdict}${candidate.cached ? " (val cached)" : ""}`);

  state.stepBuffer.push(stepBufferEntry(state, input.globalStep, decision, allRows, reflections, accumulation, rankedItems, ranked));
  Object.assign(record, {
    current_score: state.currentScore, best_score: state.bestScore, best_step: state.bestStep,
    current_origin: state.currentOrigin, best_origin: state.bestOrigin, skill_len: state.currentSkill.length,
    wall_time_s: round((performance.now() - started) / 1000, 1),
  });
  finishStep(state, input, record);
  await io.saveStage({ ...stage, candidateSkill: decidedSkill, action: decision.result.action, gate, record, currentSkill: state.currentSkill, bestSkill: state.bestSkill, state: stateSummary(state) });
}

const fmt = (score: number) => (score < 0 ? "n/a" : score.toFixed(3));

function gateStateOf(state: LoopState) {
  return { currentSkill: state.currentSkill, currentScore: state.currentScore, bestSkill: state.bestSkill, bestScore: state.bestScore, bestStep: state.bestStep };
}

function applyGate(state: LoopState, decision: GateDecision, globalStep: number, key: string): void {
  const result: GateResult = decision.result;
  Object.assign(state, { currentSkill: result.currentSkill, currentScore: result.currentScore, bestSkill: result.bestSkill, bestScore: result.bestScore, bestStep: result.bestStep });
  if (ACCEPTED.has(result.action)) state.currentOrigin = key.replace("step:", "step_");
  if (result.action === "accept_new_best" || (result.action === "force_accept" && state.bestStep === globalStep)) state.bestOrigin = state.currentOrigin;
}

function finishStep(state: LoopState, input: StepInput, record: Record<string, unknown>): void {
  state.globalStep = input.globalStep;
  state.savedSkills.set(input.globalStep, state.currentSkill);
  state.history.push({ step: input.globalStep, epoch: input.epoch, action: String(record.action), record });
}

function stepBufferEntry(
  state: LoopState, globalStep: number, decision: GateDecision, rows: readonly ItemResult[], reflections: readonly BatchReflection[],
  accumulation: number, rankedItems: readonly PyJson[], ranked: PyJson,
): StepBufferEntry {
  const failures = rows.filter(isFailure);
  // The saved failure patches in the order upstream's sorted glob reads them.
  const saved = reflections.flatMap((reflection, batch) =>
    reflection.patches.filter((patch) => patch.kind === "failure").map((patch) => ({ path: failurePatchPath(accumulation, batch, patch.minibatch), summary: patch.raw.failure_summary })),
  ).sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  const entry: StepBufferEntry = {
    step: globalStep,
    action: decision.result.action,
    nTotal: rows.length || 1,
    nFail: failures.length,
    failurePatterns: failures.length === 0 ? [] : extractFailurePatterns(failures.map((row) => ({ id: row.itemId, failReason: row.failReason })), saved.map((s) => s.summary)),
  };
  if (decision.result.action.includes("reject") && isPyDict(ranked) && Object.keys(ranked).length > 0) {
    entry.rejected = { scoreBefore: state.currentScore, scoreAfter: decision.candidateGateScore, edits: rankedItems.filter(isPyDict) };
  }
  return entry;
}

/** The ranked edits as stored: what they do, whether they applied, and which analyst minibatches proposed them. */
function stageEdits(rankedItems: readonly PyJson[], reports: readonly EditReport[], reflections: readonly BatchReflection[]): StageEdit[] {
  const text = (value: PyJson | undefined) => (value === undefined || value === null ? "" : pyJsonStr(value));
  return rankedItems.map((item, ordinal) => {
    const edit = isPyDict(item) ? (item as PyDict) : {};
    // Upstream numbers its apply report from 1.
    const report = reports.find((r) => r.index === ordinal + 1);
    const content = text(edit.content);
    const proposedBy = reflections.flatMap((reflection) =>
      reflection.patches
        .filter((patch) => payloadEdits(patch.raw.patch ?? null).some((proposed) => isPyDict(proposed) && text((proposed as PyDict).content) === content))
        .map((patch) => ({ call: patch.call, itemIds: patch.itemIds })),
    );
    const support = edit.support_count;
    return {
      ordinal,
      op: text(edit.op),
      target: text(edit.target),
      content,
      supportCount: typeof support === "number" ? support : null,
      sourceType: typeof edit.source_type === "string" ? edit.source_type : null,
      applyStatus: report?.status ?? "not_applied",
      applyDetail: report && "error" in report ? report.error : null,
      proposedBy,
    };
  });
}
