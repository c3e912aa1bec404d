import { z } from "zod";

/**
 * Everything that shapes a run, validated once here for the CLI and the dashboard alike.
 * Stored as the run's configuration snapshot, so it must never hold a secret.
 */
export const RunSettingsSchema = z.object({
  concurrency: z.number().int().min(1).max(512).default(16),
  maxTurns: z.number().int().min(1).max(20).default(1),
  /** Per model call, seconds (the seed's exec_timeout). */
  execTimeoutS: z.number().positive().max(86_400).default(120),
  /** Per item, seconds; the effective value is max(taskTimeoutS, execTimeoutS + 60) as in the seed. */
  taskTimeoutS: z.number().positive().max(86_400).default(600),
  /** The seed's 60 s of slack of the task timeout over the call timeout; lowered only by tests and benchmarks. */
  taskTimeoutGraceS: z.number().min(0).max(86_400).default(60),
  maxCompletionTokens: z.number().int().min(1).max(1_000_000).default(16384),
  temperature: z.number().min(0).max(2).optional(),
  maxRetries: z.number().int().min(0).max(20).default(5),
  diagnosticMode: z.boolean().default(false),
  diagnosticInstruction: z.string().default(""),
  /** The first N items of the dataset. */
  limit: z.number().int().min(1).optional(),
  /** A seeded random sample of N items (taken after no limit). */
  sample: z.object({ size: z.number().int().min(1), seed: z.number().int() }).optional(),
});

export type RunSettings = z.infer<typeof RunSettingsSchema>;

export const ModelSelectionSchema = z.object({
  backend: z.enum(["openai", "azure", "baseline"]),
  model: z.string().min(1).optional(),
  /** Already redacted (no credentials, query or fragment). */
  baseURL: z.string().url().optional(),
});

export const RunConfigSchema = z.object({
  model: ModelSelectionSchema,
  settings: RunSettingsSchema,
});

export type RunConfig = z.infer<typeof RunConfigSchema>;

export function effectiveTaskTimeoutS(settings: Pick<RunSettings, "taskTimeoutS" | "execTimeoutS" | "taskTimeoutGraceS">): number {
  // The seed: task_timeout = max(int(task_timeout), int(exec_timeout) + 60). Whole seconds stay whole, as there;
  // fractions are kept so tests can use sub-second timeouts.
  return Math.max(settings.taskTimeoutS, settings.execTimeoutS + settings.taskTimeoutGraceS);
}
