/**
 * The optimisation's settings: upstream SkillOpt's config sections with the defaults of
 * configs/searchqa/default.yaml over configs/_base_/default.yaml (its `env:` section included), validated
 * as skillopt/engine/trainer.py and skillopt/datasets/base.py validate them, plus the features Skillboard
 * refuses for now. Keys keep upstream's names so settings map one to one onto SkillOpt's `config.json`.
 *
 * Left out on purpose: the `model:` section's provider plumbing (Azure endpoints, API keys, CLI paths; Skillboard
 * has its own model options and secrets never enter settings); only the model names and reasoning effort stay.
 * Defaults not in either YAML file come from the code that reads them and say so: `gate_metric`,
 * `gate_mixed_weight`, `use_semantic_density`, `semantic_density_weight` (trainer.py's `cfg.get` defaults) and
 * `split_ratio` (SplitDataLoader's). `skillboard` holds Skillboard's opt-in deviations; its defaults are the seed's
 * behaviour (strict gate, automatic approval).
 */
import { z } from "zod";
import { pyStrip } from "@/lib/text/python";
import { GATE_METRICS, type GateMetric } from "./gate";
import { SCHEDULER_MODES } from "./scheduler";
import { parseSplitRatio, SplitRatioError } from "./splits";

/** `normalize_update_mode` (skillopt/optimizer/update_modes.py). Quirk copied: an unknown value means "patch". */
export function normalizeUpdateMode(mode: string): "patch" | "rewrite_from_suggestions" | "full_rewrite_minibatch" {
  const raw = pyStrip(mode).toLowerCase() || "patch";
  if (["rewrite", "rewrite_from_suggestions", "suggestions", "rewrite_suggestions"].includes(raw)) return "rewrite_from_suggestions";
  if (["full_rewrite", "full_rewrite_minibatch", "minibatch_full_rewrite", "skill_rewrite_minibatch"].includes(raw)) {
    return "full_rewrite_minibatch";
  }
  return "patch";
}

const LR_CONTROL_ALIASES: Record<string, "fixed" | "autonomous" | "none"> = {
  fixed: "fixed", manual: "fixed", scheduler: "fixed", scheduled: "fixed",
  autonomous: "autonomous", auto: "autonomous", optimizer: "autonomous",
  none: "none", off: "none", no_lr: "none",
};
const GATE_METRIC_NAMES = Object.fromEntries(GATE_METRICS.map((metric) => [metric, metric])) as Record<string, GateMetric>;
const PAIR_POLICY_ALIASES: Record<string, "mixed" | "changed" | "unchanged"> = {
  mixed: "mixed", default: "mixed", random: "mixed", all: "mixed",
  changed: "changed", change: "changed", delta: "changed", "10_01": "changed", "01_10": "changed",
  unchanged: "unchanged", stable: "unchanged", same: "unchanged", "00_11": "unchanged",
};

/** An alias table as trainer.py applies it: strip, lower-case, look up, else its error message. */
function aliased<T extends string>(table: Record<string, T>, message: string) {
  return z.string().transform((value, context) => {
    const key = pyStrip(value).toLowerCase();
    const resolved = Object.hasOwn(table, key) ? table[key] : undefined;
    if (resolved === undefined) {
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return resolved;
  });
}

const positiveInt = z.number().int().positive();
const count = z.number().int().min(0);

const Model = z.strictObject({
  optimizer: z.string().default("gpt-5.5"),
  target: z.string().default("gpt-5.5"),
  reasoning_effort: z.string().default("medium"),
});

const Train = z.strictObject({
  num_epochs: positiveInt.default(4),
  /** 0 = the train split's size; otherwise it must equal it (trainer.py `_resolve_train_size`). */
  train_size: count.default(400),
  batch_size: z.number().int().positive({ error: "batch_size must be positive" }).default(40),
  accumulation: z.number().int().positive({ error: "accumulation must be positive" }).default(1),
  seed: z.number().int().default(42),
});

const Gradient = z.strictObject({
  minibatch_size: positiveInt.default(8),
  merge_batch_size: z.number().int().min(2, { error: "merge_batch_size must be >= 2" }).default(8),
  analyst_workers: positiveInt.default(16),
  failure_only: z.boolean().default(false),
});

const Optimizer = z.strictObject({
  learning_rate: count.default(4),
  min_learning_rate: count.default(2),
  lr_scheduler: z.enum(SCHEDULER_MODES, { error: `lr_scheduler must be one of ${SCHEDULER_MODES.join(", ")}` }).default("cosine"),
  lr_control_mode: aliased(LR_CONTROL_ALIASES, "optimizer.lr_control_mode must be one of fixed, autonomous, none").default("fixed"),
  skill_update_mode: z.string().transform(normalizeUpdateMode).default("patch"),
  use_slow_update: z.boolean().default(true),
  slow_update_samples: count.default(20),
  slow_update_gate_with_selection: z.boolean().default(false),
  longitudinal_pair_policy: aliased(PAIR_POLICY_ALIASES, "optimizer.longitudinal_pair_policy must be one of mixed, changed, unchanged").default("mixed"),
  use_meta_skill: z.boolean().default(true),
  use_skill_aware_reflection: z.boolean().default(false),
  skill_aware_appendix_source: z.enum(["both", "failure_only"]).default("both"),
  skill_aware_consolidate_threshold: count.default(0),
});

const Evaluation = z.strictObject({
  use_gate: z.boolean().default(true),
  gate_metric: aliased(GATE_METRIC_NAMES, "evaluation.gate_metric must be 'hard' | 'soft' | 'mixed'").default("hard"),
  gate_mixed_weight: z.number().min(0, { error: "evaluation.gate_mixed_weight must be in [0, 1]" }).max(1, { error: "evaluation.gate_mixed_weight must be in [0, 1]" }).default(0.5),
  use_semantic_density: z.boolean().default(false),
  semantic_density_weight: z.number().default(0.05),
  sel_env_num: count.default(0),
  test_env_num: count.default(0),
  eval_test: z.boolean().default(true),
});

const Env = z.strictObject({
  name: z.string().default("searchqa"),
  skill_init: z.string().default("skillopt/envs/searchqa/skills/initial.md"),
  split_mode: z.enum(["ratio", "split_dir"], { error: "split_mode must be 'ratio' or 'split_dir'" }).default("split_dir"),
  split_ratio: z.string().refine(isSplitRatio, { error: "split_ratio must be in train:val:test form with positive integers" }).default("2:1:7"),
  split_seed: z.number().int().default(42),
  split_dir: z.string().default("data/searchqa_split"),
  data_path: z.string().default(""),
  split_output_dir: z.string().default(""),
  exec_timeout: z.number().positive().default(120),
  out_root: z.string().default(""),
  max_turns: positiveInt.default(1),
  max_completion_tokens: positiveInt.default(16384),
  workers: positiveInt.default(24),
  limit: count.default(0),
});

/** Skillboard's additions; each non-default value is a labelled deviation from the seed. */
const Skillboard = z.strictObject({
  gate: z.enum(["strict", "mcnemar", "none"]).default("strict"),
  alpha: z.number().gt(0).lt(1).default(0.05),
  approval: z.enum(["auto", "manual"]).default("auto"),
  // Rolls the current skill out on val when its score was inherited (a slow update's placeholder or force-accept), so
  // the gate's paired statistics have both sides: one extra val run per inherited skill. Implied by the McNemar gate.
  measure_inherited: z.boolean().default(false),
});

function isSplitRatio(text: string): boolean {
  try {
    parseSplitRatio(text);
    return true;
  } catch (error) {
    if (error instanceof SplitRatioError) return false;
    throw error;
  }
}

export const OptimizeSettingsSchema = z.strictObject({
  model: Model.prefault({}),
  train: Train.prefault({}),
  gradient: Gradient.prefault({}),
  optimizer: Optimizer.prefault({}),
  evaluation: Evaluation.prefault({}),
  env: Env.prefault({}),
  skillboard: Skillboard.prefault({}),
});

export type OptimizeSettings = z.output<typeof OptimizeSettingsSchema>;
export type OptimizeSettingsInput = z.input<typeof OptimizeSettingsSchema>;

/** Bad or refused settings; the message names each field (`optimizer.skill_update_mode: …`). */
export class OptimizeSettingsError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join("\n"));
    this.name = "OptimizeSettingsError";
  }
}

/** The "paper" preset: the seed's defaults with the slow update checked on the selection split. */
export const PAPER_PRESET: OptimizeSettingsInput = { optimizer: { slow_update_gate_with_selection: true } };

/** Features issue 15 defers: refused with a message, never half-run. */
function refusals(settings: OptimizeSettings): string[] {
  const problems: string[] = [];
  const mode = settings.optimizer.skill_update_mode;
  if (mode !== "patch") {
    problems.push(`optimizer.skill_update_mode: "${mode}" is not supported yet; Skillboard runs the seed's "patch" mode only`);
  }
  if (settings.optimizer.use_skill_aware_reflection) {
    problems.push("optimizer.use_skill_aware_reflection: skill-aware reflection is not supported yet; set it to false");
  }
  if (settings.optimizer.lr_control_mode === "autonomous") {
    problems.push('optimizer.lr_control_mode: the autonomous learning rate is not supported yet; use "fixed"');
  }
  return problems;
}

/** Settings from partial input (CLI options, a stored row): defaults filled in, validated, refusals applied. */
export function parseOptimizeSettings(input: unknown = {}): OptimizeSettings {
  const parsed = OptimizeSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const where = (path: readonly PropertyKey[]) => (path.length > 0 ? path.map(String).join(".") : "settings");
    throw new OptimizeSettingsError(parsed.error.issues.map((issue) => `${where(issue.path)}: ${issue.message}`));
  }
  const problems = refusals(parsed.data);
  if (problems.length > 0) throw new OptimizeSettingsError(problems);
  return parsed.data;
}
