/**
 * SkillOpt's flat `config.json` (skillopt/config.py `flatten_config` + the derived fields trainer.py adds before it
 * writes the file) from Skillboard's sectioned settings, and back. Key order is upstream's: `_FLATTEN_MAP` order, then
 * the `env:` keys it passes through, then `steps_per_epoch`, `batches_per_epoch`, `samples_per_epoch` (new keys
 * trainer.py appends; `train_size`, `skill_update_mode`, `lr_control_mode` keep their places).
 */
import type { PyJson } from "../export/python-json";

type Dict = Record<string, PyJson>;

/** [section, our key, upstream's flat key], in `_FLATTEN_MAP` order, for the keys Skillboard's settings have. */
const FLAT_KEYS: readonly (readonly [string, string, string])[] = [
  ["model", "optimizer", "optimizer_model"],
  ["model", "target", "target_model"],
  ["model", "reasoning_effort", "reasoning_effort"],
  ...["num_epochs", "train_size", "batch_size", "accumulation", "seed"].map((key) => ["train", key, key] as const),
  ...["minibatch_size", "merge_batch_size", "analyst_workers", "failure_only"].map((key) => ["gradient", key, key] as const),
  ["optimizer", "learning_rate", "edit_budget"],
  ["optimizer", "min_learning_rate", "min_edit_budget"],
  ...[
    "lr_scheduler", "lr_control_mode", "skill_update_mode", "use_slow_update", "slow_update_samples", "slow_update_gate_with_selection",
    "longitudinal_pair_policy", "use_meta_skill", "use_skill_aware_reflection", "skill_aware_appendix_source", "skill_aware_consolidate_threshold",
  ].map((key) => ["optimizer", key, key] as const),
  ...["use_gate", "gate_metric", "gate_mixed_weight", "use_semantic_density", "semantic_density_weight", "leading_words", "sel_env_num", "test_env_num", "eval_test"].map(
    (key) => ["evaluation", key, key] as const,
  ),
  ["env", "name", "env"],
  ["env", "skill_init", "skill_init"],
  ["env", "out_root", "out_root"],
];
const MAPPED_ENV_KEYS = new Set(FLAT_KEYS.filter(([section]) => section === "env").map(([, key]) => key));

/** Config keys whose values are credentials: never stored, never exported (upstream redacts only three of them). */
export function isSecretConfigKey(key: string): boolean {
  return /api_key|secret|password|credential|auth_token/i.test(key);
}

/** config.json for sectioned settings; `trainSize` is the train split's size (what `train_size: 0` resolves to). */
export function flatSkillOptConfig(settings: Record<string, unknown>, trainSize: number | null): Dict {
  const section = (name: string) => (settings[name] ?? {}) as Dict;
  const flat: Dict = {};
  for (const [name, key, flatKey] of FLAT_KEYS) {
    if (Object.hasOwn(section(name), key)) flat[flatKey] = section(name)[key]!;
  }
  for (const [key, value] of Object.entries(section("env"))) if (!MAPPED_ENV_KEYS.has(key)) flat[key] = value;
  const train = section("train") as { train_size?: number; batch_size?: number; accumulation?: number };
  const resolved = train.train_size ? train.train_size : trainSize;
  if (resolved !== null && resolved !== undefined && train.batch_size && train.accumulation) {
    const stepsPerEpoch = Math.ceil(resolved / (train.batch_size * train.accumulation));
    Object.assign(flat, { train_size: resolved, steps_per_epoch: stepsPerEpoch, batches_per_epoch: stepsPerEpoch * train.accumulation, samples_per_epoch: resolved });
  }
  for (const key of Object.keys(flat)) if (isSecretConfigKey(key)) delete flat[key];
  return flat;
}

/** Sectioned settings (Skillboard's key names) from a flat config.json, as far as its keys are known. */
export function sectionedSettings(flat: Dict): Record<string, Dict> {
  const sections: Record<string, Dict> = {};
  const byFlat = new Map(FLAT_KEYS.map(([name, key, flatKey]) => [flatKey, [name, key] as const]));
  for (const [flatKey, value] of Object.entries(flat)) {
    const [name, key] = byFlat.get(flatKey) ?? [];
    if (name && key) (sections[name] ??= {})[key] = value;
  }
  return sections;
}
