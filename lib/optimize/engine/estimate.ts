/**
 * `optimize estimate`: what an optimisation will cost before it starts, from the settings and the datasets alone.
 * Counts are ranges (a step whose batch yields no patch skips its val rollout; the val cache may save one); tokens are
 * a rough guide from text lengths (4 characters a token), labelled as such.
 */
import { getDatasetItems, getSkillVersion, type Db } from "../../db";
import { planTrainEpoch, stepsPerEpoch } from "../batches";
import type { CreateOptimizationForInput, ValidatedOptimization } from "./create";

const CHARS_PER_TOKEN = 4;
/** A guess at an optimizer reply's length (an analyst's JSON patch, a merge) in tokens. */
const REPLY_TOKENS = 1200;

export async function estimateOptimization(db: Db, input: CreateOptimizationForInput, valid: ValidatedOptimization) {
  const { settings, targetConfig } = valid;
  const [train, val, test] = await Promise.all([
    getDatasetItems(db, input.trainDatasetId),
    getDatasetItems(db, input.valDatasetId),
    input.testDatasetId === null ? Promise.resolve([]) : getDatasetItems(db, input.testDatasetId),
  ]);
  const skill = await getSkillVersion(db, input.skillVersionId);
  const firstN = (n: number, limit: number) => (limit && limit < n ? limit : n);
  const valN = firstN(val.length, settings.evaluation.sel_env_num);
  const testN = settings.evaluation.eval_test ? firstN(test.length, settings.evaluation.test_env_num) : 0;
  const { num_epochs: epochs, batch_size: batchSize, accumulation } = settings.train;
  const perEpoch = stepsPerEpoch(train.length, batchSize, accumulation);
  const ids = train.map((item) => item.id);
  let trainRollouts = 0;
  for (let epoch = 1; epoch <= epochs; epoch++) {
    trainRollouts += planTrainEpoch(ids, { epoch, stepsPerEpoch: perEpoch, accumulation, batchSize, seed: settings.train.seed }).reduce((sum, batch) => sum + batch.items.length, 0);
  }
  const steps = epochs * perEpoch;
  const { optimizer, gradient } = settings;
  const samples = Math.min(optimizer.slow_update_samples, train.length);
  const laterEpochs = Math.max(epochs - 1, 0);
  const longitudinal = optimizer.use_slow_update || optimizer.use_meta_skill ? laterEpochs * 2 * samples : 0;
  const slowGate = optimizer.use_slow_update && optimizer.slow_update_gate_with_selection ? laterEpochs * valN : 0;
  // A slow update's skill inherits its score; measured on val once for the gate's statistics when asked (or McNemar).
  const measured = settings.skillboard.measure_inherited || settings.skillboard.gate === "mcnemar";
  const inheritedVal = optimizer.use_slow_update && measured ? laterEpochs * valN : 0;
  const minItems = trainRollouts + valN + longitudinal + (testN > 0 ? 2 * testN : 0);
  const maxItems = trainRollouts + valN * (1 + steps) + longitudinal + slowGate + inheritedVal + (testN > 0 ? valN + 3 * testN : 0);
  const turns = targetConfig.settings.maxTurns;

  // Per batch: at most ceil(B/M) failure minibatches plus one for a mixed split; merges bounded by patches - 1 per tree.
  const analystMax = steps * accumulation * (Math.ceil(batchSize / gradient.minibatch_size) + 1);
  const mergeMax = steps * Math.max(Math.ceil((analystMax / Math.max(steps, 1)) / (gradient.merge_batch_size - 1)) + 1, 1);
  const epochCalls = (optimizer.use_slow_update ? laterEpochs : 0) + (optimizer.use_meta_skill ? laterEpochs : 0);
  const callsMin = steps + epochCalls;
  const callsMax = analystMax + mergeMax + steps + epochCalls;
  const avgItemChars = train.length ? train.reduce((sum, item) => sum + item.question.length + item.context.length, 0) / train.length : 0;
  const analystPromptTokens = (skill.content.length + gradient.minibatch_size * (avgItemChars + 2000)) / CHARS_PER_TOKEN;
  const tokens = (calls: number) => Math.round(calls * (analystPromptTokens + REPLY_TOKENS));
  return {
    train_items: train.length, val_items: valN, test_items: testN, epochs, steps_per_epoch: perEpoch, steps,
    target_calls: { min: minItems, max: maxItems * turns, note: "item rollouts (x max turns at most); val rollouts of unchanged skills are cached" },
    optimizer_calls: { min: callsMin, max: callsMax },
    optimizer_tokens: { min: tokens(callsMin), max: tokens(callsMax), note: "rough: prompt length / 4 plus ~1200 reply tokens a call" },
  };
}
