import { buildAgentSkillMd } from "../agent/skill-md";
import { createRun, getDataset, getSkillVersion, type Db, type RunRecord } from "../db";
import type { EnvSource } from "../model/environment";
import { buildSystemPrompt } from "../prompts";
import { agentRunModelLabel, checkAgentRunnable, resolveRunAgent } from "./agent-backend";
import { chatModelForRun } from "./run-chat-model";
import { RunConfigSchema, type RunConfig } from "../runs/run-config";
import { planRunSelection, selectionSize } from "./select-items";

export interface CreateRunInput {
  datasetId: number;
  skillVersionId: number;
  config: RunConfig;
  name?: string | null;
  /** Where the agents file is looked up (SKILLBOARD_CONFIG); process.env by default. */
  env?: EnvSource;
  /** The worker id that will execute the run at once (the CLI): stored as its lease, so no other process takes it. */
  leaseFor?: string;
}

/**
 * Validates and stores a queued run (or one leased to `leaseFor`): the configuration snapshot, the exact system
 * prompt and the number of items it covers. Fails early if the chosen backend is not configured.
 */
export async function createRunFor(db: Db, input: CreateRunInput): Promise<RunRecord> {
  const config = RunConfigSchema.parse(input.config);
  const [skill, dataset] = await Promise.all([getSkillVersion(db, input.skillVersionId), getDataset(db, input.datasetId)]);
  // Counted from the dataset's size (and the listed ids' places), not by reading its items.
  // Each trial of an item is a result of its own.
  const itemsTotal = selectionSize(await planRunSelection(db, dataset, config.settings)) * config.settings.trials;
  if (itemsTotal === 0) throw new Error(`dataset ${dataset.id} has no items to run`);
  const common = { name: input.name, datasetId: dataset.id, skillVersionId: skill.id, config, itemsTotal, leaseFor: input.leaseFor };
  if (config.model.backend === "agent") {
    // Only agents in the server's config file can run; the stored "system prompt" is the SKILL.md, as in the seed.
    const agent = resolveRunAgent(config.model, input.env);
    checkAgentRunnable(agent, input.env);
    return createRun(db, { ...common, systemPrompt: buildAgentSkillMd(skill.content), model: agentRunModelLabel(agent, config.model.model) });
  }
  // Building the client checks that the backend is configured and gives the model name to store.
  const model = chatModelForRun(config);
  return createRun(db, { ...common, systemPrompt: buildSystemPrompt(skill.content), model: model.model });
}
