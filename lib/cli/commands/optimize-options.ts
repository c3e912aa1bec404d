/** `optimize start|estimate` options: the loop's settings (upstream's keys), the optimizer model and the caps. */
import { redactBaseURL } from "../../model/environment";
import { CliInputError, parseIntegerOption, parseNumberOption } from "../io";
import { TARGET_MODEL_OPTIONS } from "./target-options";

export const OPTIMIZE_OPTIONS = {
  train: { type: "string" },
  val: { type: "string" },
  test: { type: "string" },
  skill: { type: "string" },
  name: { type: "string" },
  resume: { type: "string" },
  ...TARGET_MODEL_OPTIONS,
  "optimizer-backend": { type: "string" },
  "optimizer-model": { type: "string" },
  "optimizer-base-url": { type: "string" },
  "optimizer-concurrency": { type: "string" },
  "optimizer-max-retries": { type: "string" },
  epochs: { type: "string" },
  "batch-size": { type: "string" },
  accumulation: { type: "string" },
  "minibatch-size": { type: "string" },
  "merge-batch-size": { type: "string" },
  "learning-rate": { type: "string" },
  "min-learning-rate": { type: "string" },
  "lr-scheduler": { type: "string" },
  "failure-only": { type: "boolean" },
  "slow-update": { type: "string" },
  "slow-update-samples": { type: "string" },
  "slow-update-gate": { type: "string" },
  "meta-skill": { type: "string" },
  gate: { type: "string" },
  alpha: { type: "string" },
  approval: { type: "string" },
  seed: { type: "string" },
  preset: { type: "string" },
  "max-target-calls": { type: "string" },
  "max-optimizer-tokens": { type: "string" },
  "max-wall-s": { type: "string" },
} as const;

export type OptimizeOptionValues = { [K in keyof typeof OPTIMIZE_OPTIONS]?: (typeof OPTIMIZE_OPTIONS)[K]["type"] extends "boolean" ? boolean : string };

function onOff(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "on") return true;
  if (value === "off") return false;
  throw new CliInputError(`--${name}: expected on or off, got "${value}"`);
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new CliInputError(`--${name}: expected ${allowed.join(", ")}, got "${value}"`);
  return value as T;
}

const defined = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

/** Partial settings in upstream's sections (parseOptimizeSettings fills in the rest and names any bad field). */
export function settingsFromOptions(values: OptimizeOptionValues): Record<string, unknown> {
  const preset = oneOf("preset", values.preset, ["seed", "paper"] as const);
  const gate = oneOf("gate", values.gate, ["strict", "mcnemar", "none"] as const);
  return {
    // The train split is whatever was given: upstream's 0 ("the split's size"), not the SearchQA split's 400.
    train: defined({ train_size: 0, num_epochs: parseIntegerOption("epochs", values.epochs), batch_size: parseIntegerOption("batch-size", values["batch-size"]), accumulation: parseIntegerOption("accumulation", values.accumulation), seed: parseIntegerOption("seed", values.seed) }),
    gradient: defined({ minibatch_size: parseIntegerOption("minibatch-size", values["minibatch-size"]), merge_batch_size: parseIntegerOption("merge-batch-size", values["merge-batch-size"]), failure_only: values["failure-only"], analyst_workers: parseIntegerOption("optimizer-concurrency", values["optimizer-concurrency"]) }),
    optimizer: defined({
      learning_rate: parseIntegerOption("learning-rate", values["learning-rate"]),
      min_learning_rate: parseIntegerOption("min-learning-rate", values["min-learning-rate"]),
      lr_scheduler: values["lr-scheduler"],
      use_slow_update: onOff("slow-update", values["slow-update"]),
      slow_update_samples: parseIntegerOption("slow-update-samples", values["slow-update-samples"]),
      slow_update_gate_with_selection: onOff("slow-update-gate", values["slow-update-gate"]) ?? (preset === "paper" ? true : undefined),
      use_meta_skill: onOff("meta-skill", values["meta-skill"]),
    }),
    evaluation: defined({ use_gate: gate === "none" ? false : undefined }),
    skillboard: defined({ gate, alpha: parseNumberOption("alpha", values.alpha), approval: oneOf("approval", values.approval, ["auto", "manual"] as const) }),
  };
}

export function optimizerFromOptions(values: OptimizeOptionValues, analystWorkers: number): Record<string, unknown> {
  const backend = values["optimizer-backend"] ?? (values["optimizer-base-url"] ? "openai" : values.backend === "azure" ? "azure" : "openai");
  if (backend !== "openai" && backend !== "azure") throw new CliInputError(`--optimizer-backend: expected openai or azure, got "${backend}"`);
  // Without its own server the optimizer uses the target's (one test server plays both in the project's tests).
  const baseURL = values["optimizer-base-url"] ?? (values["optimizer-backend"] === undefined && !values.agent ? values["base-url"] : undefined);
  return defined({
    backend,
    model: values["optimizer-model"],
    baseURL: baseURL ? redactBaseURL(baseURL) : undefined,
    concurrency: parseIntegerOption("optimizer-concurrency", values["optimizer-concurrency"]) ?? analystWorkers,
    maxRetries: parseIntegerOption("optimizer-max-retries", values["optimizer-max-retries"]),
  });
}

export function capsFromOptions(values: OptimizeOptionValues): Record<string, unknown> {
  return defined({
    maxTargetCalls: parseIntegerOption("max-target-calls", values["max-target-calls"]),
    maxOptimizerTokens: parseIntegerOption("max-optimizer-tokens", values["max-optimizer-tokens"]),
    maxWallS: parseNumberOption("max-wall-s", values["max-wall-s"]),
  });
}
