/**
 * SkillOpt's training loop (`ReflACTTrainer.train`, skillopt/engine/trainer.py), patch mode, from the baseline to the
 * summary. Deterministic for given settings and replies: the database-backed LoopIO replays finished work on resume.
 */
import { computeScore, selectGateScore, skillHash } from "../gate";
import { planTrainEpoch, stepsPerEpoch } from "../batches";
import type { OptimizeSettings } from "../settings";
import { runMetaSkill, runSlowUpdate } from "./epoch-end";
import { valScore } from "./evaluate";
import type { LoopIO } from "./io";
import { BASELINE_KEY, FINAL_KEY } from "./keys";
import { newLoopState, stateSummary, type LoopContext, type LoopState } from "./state";
import { runStep } from "./step";

export interface TrainInput {
  io: LoopIO;
  settings: OptimizeSettings;
  initialSkill: string;
  /** Each split's item ids in the order upstream leaves them (the loop's shuffles start from it). */
  split: { train: string[]; val: string[]; test: string[] };
}

export interface TrainOutcome {
  state: LoopState;
  summary: Record<string, unknown>;
  test: { initial: number | null; best: number | null; final: number | null };
}

export function loopContext(input: TrainInput): LoopContext {
  const { settings, split } = input;
  const trainSize = split.train.length;
  if (trainSize === 0) throw new Error("the train split has no items");
  if (split.val.length === 0) throw new Error("the val split has no items: the gate has nothing to score on");
  // trainer.py `_resolve_train_size`: 0 means the split's size; any other value must match it.
  if (settings.train.train_size !== 0 && settings.train.train_size !== trainSize) {
    throw new Error(`train.train_size is ${settings.train.train_size} but the train split has ${trainSize} items (use 0 for "the split's size")`);
  }
  const perEpoch = stepsPerEpoch(trainSize, settings.train.batch_size, settings.train.accumulation);
  const firstN = (ids: string[], n: number) => (n && n < ids.length ? ids.slice(0, n) : ids);
  return {
    io: input.io,
    settings,
    gateScore: {
      metric: settings.evaluation.gate_metric,
      mixedWeight: settings.evaluation.gate_mixed_weight,
      useSemanticDensity: settings.evaluation.use_semantic_density,
      semanticDensityWeight: settings.evaluation.semantic_density_weight,
    },
    initialSkill: input.initialSkill,
    split,
    valIds: firstN(split.val, settings.evaluation.sel_env_num),
    testIds: firstN(split.test, settings.evaluation.test_env_num),
    stepsPerEpoch: perEpoch,
    totalSteps: settings.train.num_epochs * perEpoch,
  };
}

export async function train(input: TrainInput): Promise<TrainOutcome> {
  const ctx = loopContext(input);
  const { io, settings } = ctx;
  const state = newLoopState(ctx);
  const started = performance.now();

  // Baseline on val.
  const baseline = await valScore(ctx, state, ctx.initialSkill, `${BASELINE_KEY}/val`);
  state.currentScore = selectGateScore(baseline.hard, baseline.soft, ctx.gateScore, ctx.initialSkill);
  state.bestScore = state.currentScore;
  io.log(`[optimize] baseline val ${state.currentScore.toFixed(3)} (${ctx.valIds.length} items)`);
  await io.saveStage({ key: BASELINE_KEY, kind: "baseline", epoch: 0, globalStep: 0, action: "baseline", record: { selection_hard: baseline.hard, selection_soft: baseline.soft, current_score: state.currentScore }, currentSkill: state.currentSkill, bestSkill: state.bestSkill, state: stateSummary(state) });

  let globalStep = 0;
  for (let epoch = 1; epoch <= settings.train.num_epochs; epoch++) {
    const batches = planTrainEpoch(ctx.split.train, { epoch, stepsPerEpoch: ctx.stepsPerEpoch, accumulation: settings.train.accumulation, batchSize: settings.train.batch_size, seed: settings.train.seed });
    state.stepBuffer = [];
    const metaSkill = settings.optimizer.use_meta_skill ? (state.metaSkills.get(epoch - 1) ?? "") : "";
    for (let stepInEpoch = 0; stepInEpoch < ctx.stepsPerEpoch; stepInEpoch++) {
      globalStep++;
      await io.checkpoint(`before step ${globalStep}`);
      await runStep(ctx, state, { epoch, stepInEpoch, globalStep, batches, metaSkill });
    }
    const epochLastStepSkill = state.currentSkill;
    await io.checkpoint(`end of epoch ${epoch}`);
    const pairs = settings.optimizer.use_slow_update ? await runSlowUpdate(ctx, state, epoch) : null;
    if (settings.optimizer.use_meta_skill) await runMetaSkill(ctx, state, epoch, epochLastStepSkill, pairs);
  }

  await io.checkpoint("before the final evaluation");
  const test = await finalEvaluation(ctx, state);
  const summary = buildSummary(ctx, state, test, (performance.now() - started) / 1000);
  return { state, summary, test: { initial: test.baselineTestHard, best: test.testHard, final: test.finalTestHard } };
}

interface FinalScores {
  finalSelectionHard: number | null;
  finalSelectionSoft: number | null;
  baselineTestHard: number | null;
  baselineTestSoft: number | null;
  testHard: number | null;
  testSoft: number | null;
  finalTestHard: number | null;
  finalTestSoft: number | null;
}

/** The final skill validated (and promoted when val-better than the best), then initial, best and final on test. */
async function finalEvaluation(ctx: LoopContext, state: LoopState): Promise<FinalScores> {
  const { io } = ctx;
  const scores: FinalScores = { finalSelectionHard: null, finalSelectionSoft: null, baselineTestHard: null, baselineTestSoft: null, testHard: null, testSoft: null, finalTestHard: null, finalTestSoft: null };
  const record: Record<string, unknown> = {};
  if (!ctx.settings.evaluation.eval_test || ctx.testIds.length === 0) {
    io.log(`[optimize] no test evaluation (${ctx.testIds.length === 0 ? "no test split" : "evaluation.eval_test is off"})`);
  } else {
    if (skillHash(state.currentSkill) === skillHash(state.bestSkill)) {
      scores.finalSelectionHard = state.bestScore;
    } else {
      // trainer.py:2185 rolls the final skill out on val whatever sel_cache holds (a force-accepted slow update's
      // pseudo-entry, soft 0.0, must not stand in for it) and leaves sel_cache as it is.
      const final = computeScore((await io.rollout({ key: `${FINAL_KEY}/selection`, skill: state.currentSkill, split: "val", itemIds: ctx.valIds })).rows);
      scores.finalSelectionHard = final.hard;
      scores.finalSelectionSoft = final.soft;
      const finalScore = selectGateScore(final.hard, final.soft, ctx.gateScore, state.currentSkill);
      if (finalScore > state.bestScore) {
        io.log(`[optimize] final skill val ${finalScore.toFixed(3)} > best ${state.bestScore.toFixed(3)}: promoted to best`);
        Object.assign(state, { bestSkill: state.currentSkill, bestScore: finalScore, bestStep: state.globalStep, bestOrigin: state.currentOrigin });
        record.promoted = true;
      }
    }
    const onTest = async (key: string, skill: string) => computeScore((await io.rollout({ key, skill, split: "test", itemIds: ctx.testIds })).rows);
    const initial = await onTest("test/initial", ctx.initialSkill);
    const best = await onTest("test/best", state.bestSkill);
    const final = skillHash(state.currentSkill) === skillHash(state.bestSkill) ? best : await onTest("test/final", state.currentSkill);
    Object.assign(scores, { baselineTestHard: initial.hard, baselineTestSoft: initial.soft, testHard: best.hard, testSoft: best.soft, finalTestHard: final.hard, finalTestSoft: final.soft });
    io.log(`[optimize] test: initial ${initial.hard.toFixed(3)} · best ${best.hard.toFixed(3)} · final ${final.hard.toFixed(3)}`);
  }
  // Upstream's summary.json names for the same numbers.
  Object.assign(record, {
    final_selection_hard: scores.finalSelectionHard, final_selection_soft: scores.finalSelectionSoft,
    baseline_test_hard: scores.baselineTestHard, baseline_test_soft: scores.baselineTestSoft,
    test_hard: scores.testHard, test_soft: scores.testSoft, final_test_hard: scores.finalTestHard, final_test_soft: scores.finalTestSoft,
  });
  await io.saveStage({ key: FINAL_KEY, kind: "final", epoch: ctx.settings.train.num_epochs, globalStep: state.globalStep, action: "final", record, currentSkill: state.currentSkill, bestSkill: state.bestSkill, state: stateSummary(state) });
  return scores;
}

/** SkillOpt's summary.json keys (its config section is the settings, secrets never among them). */
function buildSummary(ctx: LoopContext, state: LoopState, scores: FinalScores, wallS: number): Record<string, unknown> {
  const isAccept = (action: string) => action.includes("accept");
  const epochStats = [];
  for (let epoch = 1; epoch <= ctx.settings.train.num_epochs; epoch++) {
    const records = state.history.filter((entry) => entry.epoch === epoch);
    if (records.length === 0) continue;
    const last = records[records.length - 1]!.record;
    epochStats.push({
      epoch,
      steps: records.map((entry) => entry.step),
      accepts: records.filter((entry) => isAccept(entry.action)).length,
      rejects: records.filter((entry) => entry.action === "reject").length,
      skips: records.filter((entry) => entry.action === "skip_no_patches").length,
      best_score_at_epoch_end: last.best_score ?? 0,
      current_score_at_epoch_end: last.current_score ?? 0,
    });
  }
  return {
    version: "skillopt-0.1.0",
    config: ctx.settings,
    baseline_selection_hard: state.selCache.get(skillHash(ctx.initialSkill))?.hard ?? null,
    best_selection_hard: state.bestScore,
    final_selection_hard: scores.finalSelectionHard,
    final_selection_soft: scores.finalSelectionSoft,
    best_step: state.bestStep,
    current_origin: state.currentOrigin,
    best_origin: state.bestOrigin,
    total_steps: state.history.length,
    total_accepts: state.history.filter((entry) => isAccept(entry.action)).length,
    total_rejects: state.history.filter((entry) => entry.action === "reject").length,
    total_skips: state.history.filter((entry) => entry.action === "skip_no_patches").length,
    epoch_stats: epochStats,
    baseline_test_hard: scores.baselineTestHard,
    baseline_test_soft: scores.baselineTestSoft,
    test_hard: scores.testHard,
    test_soft: scores.testSoft,
    final_test_hard: scores.finalTestHard,
    final_test_soft: scores.finalTestSoft,
    test_delta_hard: scores.testHard !== null ? scores.testHard - (scores.baselineTestHard ?? 0) : null,
    final_test_delta_hard: scores.finalTestHard !== null ? scores.finalTestHard - (scores.baselineTestHard ?? 0) : null,
    total_wall_time_s: Number(wallS.toFixed(1)),
  };
}
