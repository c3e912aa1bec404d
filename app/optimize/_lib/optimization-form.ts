/**
 * The New optimisation form: its fields, their defaults (SkillOpt's, from lib/optimize/settings.ts) and the one
 * function that turns a posted form into the engine's input, every problem a message on its field. Both the
 * estimate and the start action go through it; nothing is stored but a requested split's three parts (the same
 * split is found, not copied, the next time).
 */
import { z } from "zod";
import type { ActionFailure } from "@/app/_lib/action-result";
import { describeBackends } from "@/app/_lib/backends";
import { chosenIdSchema } from "@/app/_lib/ids";
import { NotFoundError, splitDataset, type Db } from "@/lib/db";
import { SplitRequestError } from "@/lib/datasets/split-dataset";
import type { EnvSource } from "@/lib/model";
import type { CreateOptimizationForInput } from "@/lib/optimize/engine";
import { OptimizeSettingsError, OptimizeSettingsSchema } from "@/lib/optimize/settings";
import { RunSettingsSchema } from "@/lib/runs/run-config";

export const LOOP_FIELDS = [
  "epochs", "batchSize", "accumulation", "minibatchSize", "mergeBatchSize", "learningRate", "minLearningRate", "lrScheduler",
  "failureOnly", "slowUpdate", "slowUpdateSamples", "slowUpdateGate", "metaSkill", "seed",
] as const;
export type LoopField = (typeof LOOP_FIELDS)[number];
/** The loop's fields as the form holds them (text boxes and checkboxes). */
export type LoopValues = Record<LoopField, string | boolean>;

const SEED = OptimizeSettingsSchema.parse({});
/** "SkillOpt default": configs/searchqa/default.yaml over configs/_base_/default.yaml. */
export const SKILLOPT_DEFAULT: LoopValues = {
  epochs: String(SEED.train.num_epochs), batchSize: String(SEED.train.batch_size), accumulation: String(SEED.train.accumulation),
  minibatchSize: String(SEED.gradient.minibatch_size), mergeBatchSize: String(SEED.gradient.merge_batch_size),
  learningRate: String(SEED.optimizer.learning_rate), minLearningRate: String(SEED.optimizer.min_learning_rate), lrScheduler: SEED.optimizer.lr_scheduler,
  failureOnly: SEED.gradient.failure_only, slowUpdate: SEED.optimizer.use_slow_update, slowUpdateSamples: String(SEED.optimizer.slow_update_samples),
  slowUpdateGate: SEED.optimizer.slow_update_gate_with_selection, metaSkill: SEED.optimizer.use_meta_skill, seed: String(SEED.train.seed),
};
/** "SkillOpt paper": the same with the slow update gated on the selection split (PAPER_PRESET). */
export const SKILLOPT_PAPER: LoopValues = { ...SKILLOPT_DEFAULT, slowUpdateGate: true };

/** The target's run settings default to SearchQA's env section, as `optimize start` does. */
export const TARGET_DEFAULTS = { concurrency: "24", maxTurns: "1", execTimeoutS: "120", maxCompletionTokens: "16384", maxRetries: "5", temperature: "" };

const LABELS = {
  name: "Name", skillVersionId: "Skill version", datasetMode: "Datasets", trainDatasetId: "Train dataset", valDatasetId: "Val dataset",
  testDatasetId: "Test dataset", sourceDatasetId: "Dataset to split", splitRatio: "Split ratio", splitSeed: "Split seed",
  backend: "Target backend", model: "Target model", concurrency: "Concurrency", maxTurns: "Max turns", execTimeoutS: "Model-call timeout",
  maxCompletionTokens: "Max completion tokens", maxRetries: "Max retries", temperature: "Temperature",
  optimizerBackend: "Optimizer backend", optimizerModel: "Optimizer model", optimizerConcurrency: "Optimizer concurrency",
  epochs: "Epochs", batchSize: "Batch size", accumulation: "Accumulation", minibatchSize: "Minibatch size", mergeBatchSize: "Merge batch size",
  learningRate: "Learning rate", minLearningRate: "Min learning rate", lrScheduler: "LR schedule", failureOnly: "Failures only",
  slowUpdate: "Slow update", slowUpdateSamples: "Slow-update samples", slowUpdateGate: "Gate the slow update", metaSkill: "Meta skill", seed: "Seed",
  gate: "Gate", alpha: "Alpha", measureInherited: "Measure inherited val scores", approval: "Approval", maxTargetCalls: "Max target calls", maxOptimizerTokens: "Max optimizer tokens", maxWallS: "Max wall time",
} as const;
export type OptimizationField = keyof typeof LABELS;
export type OptimizationFormFailure = ActionFailure<OptimizationField>;

export const NOT_STARTED = "Not started: see the messages under the fields above.";

const fail = (fields: Partial<Record<OptimizationField, string>>): OptimizationFormFailure => ({ ok: false, error: NOT_STARTED, fields });

function numberField(field: OptimizationField, optional = false) {
  const label = LABELS[field];
  const text = z.string({ error: `${label} is required` }).trim();
  const number = z.number({ error: `${label} must be a number` });
  return optional
    ? text.optional().transform((value) => (value ? Number(value) : undefined)).pipe(number.optional())
    : text.min(1, `${label} is required`).transform(Number).pipe(number);
}
const checkbox = z.literal("on").optional().transform((value) => value === "on");
const optionalId = (label: string) => z.preprocess((value) => (value === "" ? undefined : value), chosenIdSchema(label).optional());

const FormSchema = z.object({
  name: z.string().trim().max(200, "Name is too long").optional(),
  skillVersionId: chosenIdSchema("Skill version"),
  datasetMode: z.enum(["parts", "split"], { error: "Choose existing train / val / test datasets or a split" }).default("parts"),
  trainDatasetId: optionalId("Train dataset"),
  valDatasetId: optionalId("Val dataset"),
  testDatasetId: optionalId("Test dataset"),
  sourceDatasetId: optionalId("Dataset to split"),
  splitRatio: z.string().trim().optional(),
  splitSeed: numberField("splitSeed", true),
  backend: z.enum(["openai", "azure"], { error: "Choose the target's backend: openai or azure" }),
  model: z.string().trim().max(200, "Model name is too long").optional(),
  concurrency: numberField("concurrency"),
  maxTurns: numberField("maxTurns"),
  execTimeoutS: numberField("execTimeoutS"),
  maxCompletionTokens: numberField("maxCompletionTokens"),
  maxRetries: numberField("maxRetries"),
  temperature: numberField("temperature", true),
  optimizerBackend: z.enum(["openai", "azure"], { error: "Choose the optimizer's backend: openai or azure" }),
  optimizerModel: z.string().trim().max(200, "Model name is too long").optional(),
  optimizerConcurrency: numberField("optimizerConcurrency"),
  epochs: numberField("epochs"),
  batchSize: numberField("batchSize"),
  accumulation: numberField("accumulation"),
  minibatchSize: numberField("minibatchSize"),
  mergeBatchSize: numberField("mergeBatchSize"),
  learningRate: numberField("learningRate"),
  minLearningRate: numberField("minLearningRate"),
  lrScheduler: z.string().trim(),
  failureOnly: checkbox,
  slowUpdate: checkbox,
  slowUpdateSamples: numberField("slowUpdateSamples"),
  slowUpdateGate: checkbox,
  metaSkill: checkbox,
  seed: numberField("seed"),
  gate: z.enum(["strict", "mcnemar", "none"], { error: "Choose a gate: strict, mcnemar or none" }),
  // Disabled (so not posted) unless the gate is McNemar: then the seed's default level.
  alpha: numberField("alpha", true).transform((value) => value ?? 0.05),
  measureInherited: checkbox,
  approval: z.enum(["auto", "manual"], { error: "Choose automatic or manual approval" }),
  maxTargetCalls: numberField("maxTargetCalls", true),
  maxOptimizerTokens: numberField("maxOptimizerTokens", true),
  maxWallS: numberField("maxWallS", true),
});
type Form = z.output<typeof FormSchema>;

/** Where a settings path (`train.batch_size`) is on the form. */
const FIELD_OF_SETTING: Record<string, OptimizationField> = {
  "train.num_epochs": "epochs", "train.batch_size": "batchSize", "train.accumulation": "accumulation", "train.seed": "seed",
  "gradient.minibatch_size": "minibatchSize", "gradient.merge_batch_size": "mergeBatchSize", "gradient.analyst_workers": "optimizerConcurrency",
  "optimizer.learning_rate": "learningRate", "optimizer.min_learning_rate": "minLearningRate", "optimizer.lr_scheduler": "lrScheduler",
  "optimizer.slow_update_samples": "slowUpdateSamples", "skillboard.alpha": "alpha", "skillboard.gate": "gate", "skillboard.approval": "approval",
};

function firstIssues(issues: readonly z.core.$ZodIssue[], fieldOf: (path: readonly PropertyKey[]) => string): Partial<Record<OptimizationField, string>> {
  const fields: Partial<Record<OptimizationField, string>> = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path) as OptimizationField;
    if (!(field in LABELS) || fields[field]) continue;
    fields[field] = describeIssue(LABELS[field], issue);
  }
  return fields;
}

function describeIssue(label: string, issue: z.core.$ZodIssue): string {
  if (issue.code === "too_small" && issue.origin === "number") return `${label} must be ${issue.inclusive === false ? "more than" : "at least"} ${String(issue.minimum)}`;
  if (issue.code === "too_big" && issue.origin === "number") return `${label} must be ${issue.inclusive === false ? "less than" : "at most"} ${String(issue.maximum)}`;
  if (issue.code === "invalid_type" && issue.expected === "int") return `${label} must be a whole number`;
  return issue.code === "custom" ? `${label}: ${issue.message}` : issue.message;
}

function settingsOf(form: Form) {
  return {
    train: { train_size: 0, num_epochs: form.epochs, batch_size: form.batchSize, accumulation: form.accumulation, seed: form.seed },
    gradient: { minibatch_size: form.minibatchSize, merge_batch_size: form.mergeBatchSize, failure_only: form.failureOnly, analyst_workers: form.optimizerConcurrency },
    optimizer: {
      learning_rate: form.learningRate, min_learning_rate: form.minLearningRate, lr_scheduler: form.lrScheduler, use_slow_update: form.slowUpdate,
      slow_update_samples: form.slowUpdateSamples, slow_update_gate_with_selection: form.slowUpdateGate, use_meta_skill: form.metaSkill,
    },
    evaluation: { use_gate: form.gate !== "none" },
    skillboard: { gate: form.gate, alpha: form.alpha, approval: form.approval, measure_inherited: form.measureInherited },
  };
}

export type FormInput = { ok: true; input: CreateOptimizationForInput; notices: string[] } | OptimizationFormFailure;

/** The posted form as the engine's input (checked by validateOptimization next), or the messages per field. */
export async function optimizationInputFromForm(db: Db, formData: FormData, env: EnvSource = process.env): Promise<FormInput> {
  const parsed = FormSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return fail(firstIssues(parsed.error.issues, (path) => String(path[0])));
  const form = parsed.data;
  const settings = OptimizeSettingsSchema.safeParse(settingsOf(form));
  if (!settings.success) return fail(firstIssues(settings.error.issues, (path) => FIELD_OF_SETTING[path.map(String).join(".")] ?? "epochs"));
  const run = RunSettingsSchema.safeParse({ concurrency: form.concurrency, maxTurns: form.maxTurns, execTimeoutS: form.execTimeoutS, maxCompletionTokens: form.maxCompletionTokens, maxRetries: form.maxRetries, temperature: form.temperature });
  if (!run.success) return fail(firstIssues(run.error.issues, (path) => String(path[0])));

  const backends = describeBackends(env).options;
  const target = backends.find((option) => option.backend === form.backend)!;
  if (!target.configured) return fail({ backend: `${target.label} is not configured on this server. ${target.hint}` });
  const optimizer = backends.find((option) => option.backend === form.optimizerBackend)!;
  if (!optimizer.configured) return fail({ optimizerBackend: `${optimizer.label} is not configured on this server. ${optimizer.hint}` });

  const notices: string[] = [];
  let datasets: { train: number; val: number; test: number | null };
  if (form.datasetMode === "split") {
    if (form.sourceDatasetId === undefined) return fail({ sourceDatasetId: "Choose the dataset to split" });
    try {
      const result = await splitDataset(db, form.sourceDatasetId, { mode: "ratio", ratio: form.splitRatio || "2:1:7", seed: form.splitSeed ?? 42 });
      notices.push(...result.notices);
      const { parts } = result.split;
      datasets = { train: parts.train.datasetId, val: parts.val.datasetId, test: parts.test.datasetId };
    } catch (error) {
      if (error instanceof SplitRequestError || (error instanceof Error && /ratio/i.test(error.message))) return fail({ splitRatio: error.message });
      if (error instanceof NotFoundError) return fail({ sourceDatasetId: `Dataset ${error.id} does not exist (was it deleted?)` });
      throw error;
    }
  } else {
    if (form.trainDatasetId === undefined) return fail({ trainDatasetId: "Choose a train dataset" });
    if (form.valDatasetId === undefined) return fail({ valDatasetId: "Choose a val dataset" });
    if (form.trainDatasetId === form.valDatasetId) return fail({ valDatasetId: "The val dataset must differ from the train dataset: the gate scores on items the analyst never saw" });
    datasets = { train: form.trainDatasetId, val: form.valDatasetId, test: form.testDatasetId ?? null };
  }
  const baseURL = (option: typeof target) => (option.backend === "openai" && option.baseURL ? { baseURL: option.baseURL } : {});
  return {
    ok: true,
    notices,
    input: {
      name: form.name || null,
      skillVersionId: form.skillVersionId,
      trainDatasetId: datasets.train,
      valDatasetId: datasets.val,
      testDatasetId: datasets.test,
      settings: settingsOf(form),
      targetConfig: { model: { backend: form.backend, model: form.model || target.defaultModel, ...baseURL(target) }, settings: run.data },
      optimizer: { backend: form.optimizerBackend, model: form.optimizerModel || optimizer.defaultModel, ...baseURL(optimizer), concurrency: form.optimizerConcurrency },
      caps: { maxTargetCalls: form.maxTargetCalls ?? null, maxOptimizerTokens: form.maxOptimizerTokens ?? null, maxWallS: form.maxWallS ?? null },
    },
  };
}

/** An error of validateOptimization or createOptimizationFor as a message on its field (or the form's). */
export function engineFailure(error: unknown): OptimizationFormFailure {
  if (error instanceof OptimizeSettingsError) {
    const fields: Partial<Record<OptimizationField, string>> = {};
    for (const problem of error.problems) {
      const [path, ...rest] = problem.split(": ");
      const field = FIELD_OF_SETTING[path ?? ""] ?? "epochs";
      fields[field] ??= rest.join(": ") || problem;
    }
    return fail(fields);
  }
  if (error instanceof NotFoundError) {
    const field: OptimizationField = error.entity === "skill version" ? "skillVersionId" : "trainDatasetId";
    return fail({ [field]: `${error.entity} ${error.id} does not exist (was it deleted?)` });
  }
  if (error instanceof z.ZodError) return fail(firstIssues(error.issues, (path) => String(path[0])));
  return { ok: false, error: error instanceof Error ? error.message : String(error) };
}
