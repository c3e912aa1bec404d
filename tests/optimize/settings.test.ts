/**
 * Settings: the defaults are the SearchQA config's over the base config (record_core.py "defaults", merged from
 * the upstream YAML files), validation words its errors by field, and the deferred features are refused.
 */
import { describe, expect, it } from "vitest";
import { normalizeUpdateMode, OptimizeSettingsError, PAPER_PRESET, parseOptimizeSettings } from "@/lib/optimize/settings";
import { goldenSection } from "./golden";

type Section = Record<string, unknown>;
interface DefaultsGolden {
  intended: Record<string, Section>;
  loader_sections: string[];
}

const golden = goldenSection<DefaultsGolden>("defaults");

/** Keys whose defaults come from the code that reads them, not from either YAML file. */
const CODE_DEFAULTS: Record<string, Section> = {
  evaluation: { gate_metric: "hard", gate_mixed_weight: 0.5, use_semantic_density: false, semantic_density_weight: 0.05 },
  env: { split_ratio: "2:1:7" },
};

function problems(input: unknown): string[] {
  try {
    parseOptimizeSettings(input);
    return [];
  } catch (error) {
    if (!(error instanceof OptimizeSettingsError)) throw error;
    return [...error.problems];
  }
}

describe("optimisation settings", () => {
  it("defaults to configs/searchqa/default.yaml over configs/_base_/default.yaml, env section included", () => {
    expect(golden.loader_sections).not.toContain("env"); // upstream's loader drops it at this commit
    const settings = parseOptimizeSettings();
    for (const section of ["train", "gradient", "optimizer", "evaluation", "env"] as const) {
      expect(settings[section], section).toEqual({ ...golden.intended[section], ...CODE_DEFAULTS[section] });
    }
    const model = golden.intended.model!;
    expect(settings.model).toEqual({ optimizer: model.optimizer, target: model.target, reasoning_effort: model.reasoning_effort });
    expect(settings.skillboard).toEqual({ gate: "strict", alpha: 0.05, approval: "auto", measure_inherited: false });
  });

  it("fills in the rest around partial input, and the paper preset turns on the slow-update gate", () => {
    const settings = parseOptimizeSettings({ train: { num_epochs: 2 }, optimizer: { lr_scheduler: "linear" } });
    expect(settings.train).toMatchObject({ num_epochs: 2, batch_size: 40 });
    expect(settings.optimizer).toMatchObject({ lr_scheduler: "linear", learning_rate: 4 });
    expect(parseOptimizeSettings(PAPER_PRESET).optimizer.slow_update_gate_with_selection).toBe(true);
  });

  it("normalises upstream's aliases as trainer.py does", () => {
    const settings = parseOptimizeSettings({
      optimizer: { lr_control_mode: " Scheduled ", longitudinal_pair_policy: "10_01", skill_update_mode: "EDITS" },
      evaluation: { gate_metric: "Soft" },
    });
    expect(settings.optimizer).toMatchObject({ lr_control_mode: "fixed", longitudinal_pair_policy: "changed", skill_update_mode: "patch" });
    expect(settings.evaluation.gate_metric).toBe("soft");
    expect(normalizeUpdateMode("something else")).toBe("patch"); // upstream quirk: unknown means patch
    expect(normalizeUpdateMode("full_rewrite")).toBe("full_rewrite_minibatch");
  });

  it("refuses the features that are not supported yet, each with its field", () => {
    expect(problems({ optimizer: { skill_update_mode: "rewrite" } })).toEqual([
      'optimizer.skill_update_mode: "rewrite_from_suggestions" is not supported yet; Skillboard runs the seed\'s "patch" mode only',
    ]);
    expect(problems({ optimizer: { skill_update_mode: "full_rewrite_minibatch" } })[0]).toContain('"full_rewrite_minibatch" is not supported yet');
    expect(problems({ optimizer: { use_skill_aware_reflection: true, lr_control_mode: "auto" } })).toEqual([
      "optimizer.use_skill_aware_reflection: skill-aware reflection is not supported yet; set it to false",
      'optimizer.lr_control_mode: the autonomous learning rate is not supported yet; use "fixed"',
    ]);
  });

  it("names the field of every invalid value, with upstream's wording where it has one", () => {
    expect(
      problems({
        train: { batch_size: 0, accumulation: -1 },
        gradient: { merge_batch_size: 1 },
        optimizer: { lr_scheduler: "warmup", lr_control_mode: "sometimes" },
        evaluation: { gate_metric: "median", gate_mixed_weight: 1.5 },
        env: { split_mode: "folds", split_ratio: "2:1" },
        unknown_section: {},
      }),
    ).toEqual([
      "train.batch_size: batch_size must be positive",
      "train.accumulation: accumulation must be positive",
      "gradient.merge_batch_size: merge_batch_size must be >= 2",
      "optimizer.lr_scheduler: lr_scheduler must be one of constant, linear, cosine, autonomous",
      "optimizer.lr_control_mode: optimizer.lr_control_mode must be one of fixed, autonomous, none",
      "evaluation.gate_metric: evaluation.gate_metric must be 'hard' | 'soft' | 'mixed'",
      "evaluation.gate_mixed_weight: evaluation.gate_mixed_weight must be in [0, 1]",
      "env.split_mode: split_mode must be 'ratio' or 'split_dir'",
      "env.split_ratio: split_ratio must be in train:val:test form with positive integers",
      'settings: Unrecognized key: "unknown_section"',
    ]);
  });
});
