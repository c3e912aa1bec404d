/** What an optimisation is started with besides the loop's settings: the optimizer model and the budget caps. */
import { z } from "zod";

/** The optimizer model (analyst, merge, ranking, slow update, meta skill). Never a secret: keys come from the environment. */
export const OptimizerModelSchema = z.object({
  backend: z.enum(["openai", "azure"]),
  model: z.string().min(1).optional(),
  /** Already redacted (no credentials, query or fragment). */
  baseURL: z.string().url().optional(),
  /** Optimizer calls in flight at once (upstream: analyst_workers threads). */
  concurrency: z.number().int().min(1).max(256).default(16),
  /** Upstream's chat_optimizer(retries=3). */
  maxRetries: z.number().int().min(0).max(20).default(3),
  callTimeoutS: z.number().positive().max(86_400).default(600),
});
export type OptimizerModelConfig = z.infer<typeof OptimizerModelSchema>;

/** Caps that stop an optimisation cleanly at a step boundary (null: no cap). */
export const OptimizationCapsSchema = z.object({
  maxTargetCalls: z.number().int().min(1).nullable().default(null),
  maxOptimizerTokens: z.number().int().min(1).nullable().default(null),
  maxWallS: z.number().positive().nullable().default(null),
});
export type OptimizationCaps = z.infer<typeof OptimizationCapsSchema>;

export interface Spend {
  targetCalls: number;
  optimizerCalls: number;
  optimizerTokens: number;
  wallS: number;
}

/** The first cap the spend has reached, as a sentence naming it; null while under every cap. */
export function reachedCap(caps: OptimizationCaps, spend: Spend): string | null {
  if (caps.maxTargetCalls !== null && spend.targetCalls >= caps.maxTargetCalls) {
    return `stopped by --max-target-calls: ${spend.targetCalls} target calls made (cap ${caps.maxTargetCalls})`;
  }
  if (caps.maxOptimizerTokens !== null && spend.optimizerTokens >= caps.maxOptimizerTokens) {
    return `stopped by --max-optimizer-tokens: ${spend.optimizerTokens} optimizer tokens used (cap ${caps.maxOptimizerTokens})`;
  }
  if (caps.maxWallS !== null && spend.wallS >= caps.maxWallS) {
    return `stopped by --max-wall-s: ${spend.wallS.toFixed(1)} s spent (cap ${caps.maxWallS} s)`;
  }
  return null;
}
