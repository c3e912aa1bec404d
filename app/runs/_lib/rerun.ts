import { getRun, type Db, type RunRecord } from "@/lib/db";
import { createRunFor } from "@/lib/rollout/create-run";

/**
 * A new queued run over the same dataset, items and settings as `runId`, with another skill version:
 * the comparison a skill author wants (same limit or sample seed, so the same items are asked).
 */
export async function rerunWithSkillVersion(db: Db, input: { runId: number; skillVersionId: number }): Promise<RunRecord> {
  const source = await getRun(db, input.runId);
  return createRunFor(db, { datasetId: source.datasetId, skillVersionId: input.skillVersionId, config: source.config, name: source.name });
}
