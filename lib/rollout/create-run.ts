import { createRun, getDataset, getDatasetItems, getSkillVersion, type Db, type RunRecord } from "../db";
import { createChatModel } from "../model";
import { buildSystemPrompt } from "../prompts";
import { RunConfigSchema, type RunConfig } from "./run-config";
import { selectItems } from "./select-items";

export interface CreateRunInput {
  datasetId: number;
  skillVersionId: number;
  config: RunConfig;
  name?: string | null;
}

/**
 * Validates and stores a queued run: the configuration snapshot, the exact system prompt and the
 * number of items it covers. Fails early if the chosen backend is not configured.
 */
export async function createRunFor(db: Db, input: CreateRunInput): Promise<RunRecord> {
  const config = RunConfigSchema.parse(input.config);
  const [skill, dataset] = await Promise.all([getSkillVersion(db, input.skillVersionId), getDataset(db, input.datasetId)]);
  const items = selectItems(await getDatasetItems(db, dataset.id), config.settings);
  if (items.length === 0) throw new Error(`dataset ${dataset.id} has no items to run`);
  // Building the client checks that the backend is configured and gives the model name to store.
  const model = createChatModel(config.model, { callTimeoutMs: config.settings.execTimeoutS * 1000, maxRetries: config.settings.maxRetries });
  return createRun(db, {
    name: input.name,
    datasetId: dataset.id,
    skillVersionId: skill.id,
    config,
    systemPrompt: buildSystemPrompt(skill.content),
    itemsTotal: items.length,
    model: model.model,
  });
}
