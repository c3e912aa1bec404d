/** Validates and stores a new optimisation (queued, or leased to the CLI process that will run it). */
import { getDataset, getSkillVersion, createOptimization, type Db, type OptimizationRecord } from "../../db";
import { createChatModel, type ChatModel } from "../../model";
import { RunConfigSchema, type RunConfig } from "../../runs/run-config";
import { parseOptimizeSettings, type OptimizeSettings } from "../settings";
import { OptimizationCapsSchema, OptimizerModelSchema, type OptimizationCaps, type OptimizerModelConfig } from "./config";

export interface CreateOptimizationForInput {
  name?: string | null;
  skillVersionId: number;
  trainDatasetId: number;
  valDatasetId: number;
  testDatasetId: number | null;
  /** Partial settings in upstream's sections; defaults filled in and checked here. */
  settings: unknown;
  targetConfig: RunConfig;
  optimizer: unknown;
  caps?: unknown;
  leaseFor?: string;
}

export interface ValidatedOptimization {
  settings: OptimizeSettings;
  targetConfig: RunConfig;
  optimizer: OptimizerModelConfig;
  caps: OptimizationCaps;
}

/** Every input checked, nothing stored: shared by start and estimate. */
export async function validateOptimization(db: Db, input: CreateOptimizationForInput): Promise<ValidatedOptimization> {
  const settings = parseOptimizeSettings(input.settings);
  const targetConfig = RunConfigSchema.parse(input.targetConfig);
  if (targetConfig.model.backend === "imported") throw new Error("the target model cannot be \"imported\"");
  const optimizer = OptimizerModelSchema.parse(input.optimizer);
  const caps = OptimizationCapsSchema.parse(input.caps ?? {});
  await getSkillVersion(db, input.skillVersionId);
  const ids = [input.trainDatasetId, input.valDatasetId, ...(input.testDatasetId === null ? [] : [input.testDatasetId])];
  for (const id of ids) await getDataset(db, id);
  if (input.trainDatasetId === input.valDatasetId) throw new Error("the train and val datasets must differ: the gate must score on items the analyst never saw");
  // Building the client checks the backend is configured (keys in the environment) before anything is stored.
  optimizerModelFor(optimizer);
  return { settings, targetConfig, optimizer, caps };
}

export function optimizerModelFor(config: OptimizerModelConfig): ChatModel {
  return createChatModel({ backend: config.backend, model: config.model, baseURL: config.baseURL }, { callTimeoutMs: config.callTimeoutS * 1000, maxRetries: config.maxRetries });
}

export async function createOptimizationFor(db: Db, input: CreateOptimizationForInput): Promise<OptimizationRecord> {
  const valid = await validateOptimization(db, input);
  const skill = await getSkillVersion(db, input.skillVersionId);
  return createOptimization(db, {
    name: input.name ?? null,
    skillId: skill.skillId,
    initialVersionId: skill.id,
    trainDatasetId: input.trainDatasetId,
    valDatasetId: input.valDatasetId,
    testDatasetId: input.testDatasetId,
    settingsJson: JSON.stringify(valid.settings),
    targetConfigJson: JSON.stringify(valid.targetConfig),
    optimizerJson: JSON.stringify(valid.optimizer),
    capsJson: JSON.stringify(valid.caps),
    leaseFor: input.leaseFor,
  });
}
