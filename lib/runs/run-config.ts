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
  /**
   * Exactly these items (by the dataset's item ids), still run in dataset order: an optimisation's train batch.
   * Unknown ids are refused when the run is created.
   */
  itemIds: z.array(z.string().min(1)).min(1).optional(),
  /**
   * Adaptive concurrency: between concurrencyFloor and concurrency, halved on 429s and timeouts, raised by one after a
   * window of successes; shared by the process's runs on the same server and model.
   */
  adaptiveConcurrency: z.boolean().default(false),
  concurrencyFloor: z.number().int().min(1).max(512).default(1),
  /**
   * Reuse a stored reply to the very same request (lib/model/response-cache-key.ts) instead of calling the model; new
   * replies are stored. Off by default: a re-run usually wants fresh samples.
   */
  cache: z.boolean().default(false),
  /**
   * Repeated trials: each item is sampled this many times, each trial its own result row. Trials after the first never
   * use the response cache (they are there to sample again).
   */
  trials: z.number().int().min(1).max(100).default(1),
  /** Caps applied before each request is sent (providers publish RPM and TPM limits). */
  requestsPerMinute: z.number().positive().max(1_000_000).optional(),
  tokensPerMinute: z.number().positive().max(1_000_000_000).optional(),
});

export type RunSettings = z.infer<typeof RunSettingsSchema>;

const AGENT_MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/;

export const ModelSelectionSchema = z
  .object({
    /**
     * "agent": each item runs through an agent command configured on the server (the seed's exec backend).
     * "imported": the results came from a file; nothing says which model produced them, so nothing can run it here.
     */
    backend: z.enum(["openai", "azure", "baseline", "agent", "imported"]),
    model: z.string().min(1).optional(),
    /** Already redacted (no credentials, query or fragment). */
    baseURL: z.string().url().optional(),
    /** Agent runs: the name of an agent in the server's config file (never a command). */
    agent: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "agent names are letters, digits, '.', '_' and '-'").optional(),
    /** Agent runs: keep the workspaces of correct items too (those of other items are always kept). */
    keepWorkspaces: z.boolean().optional(),
  })
  .refine((selection) => (selection.backend === "agent") === (selection.agent !== undefined), {
    message: "an agent is named exactly when the backend is \"agent\"",
    path: ["agent"],
  })
  // An agent's model becomes a command-line argument: a plain name, never something that reads as an option.
  .refine((selection) => selection.backend !== "agent" || selection.model === undefined || AGENT_MODEL_NAME.test(selection.model), {
    message: "an agent's model must be a plain name (letters, digits and . _ : / @ + -, not starting with -)",
    path: ["model"],
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
