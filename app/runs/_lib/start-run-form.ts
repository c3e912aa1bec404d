import { z } from "zod";
import type { ActionFailure, ActionResult } from "@/app/_lib/action-result";
import { chosenIdSchema } from "@/app/_lib/ids";
import { NotFoundError, type Db } from "@/lib/db";
import type { EnvSource } from "@/lib/model";
import { createRunFor } from "@/lib/rollout/create-run";
import { ModelSelectionSchema, RunSettingsSchema, type RunConfig, type RunSettings } from "@/lib/runs/run-config";
import { describeBackends } from "@/app/_lib/backends";

/** The New run form's field names (the `name` of each input). */
export const START_RUN_FIELDS = [
  "datasetId", "skillVersionId", "backend", "model", "agent", "keepWorkspaces", "concurrency", "maxTurns", "execTimeoutS", "taskTimeoutS",
  "maxCompletionTokens", "maxRetries", "temperature", "adaptiveConcurrency", "cache", "requestsPerMinute", "tokensPerMinute", "diagnosticMode", "diagnosticInstruction", "selection", "limit",
  "sampleSize", "sampleSeed", "trials", "name",
] as const;
export type StartRunField = (typeof START_RUN_FIELDS)[number];

/** What the form is told: the new run's id, or a message per field (and for the form as a whole). */
export type StartRunResult = ActionResult<{ runId: number }, StartRunField>;
export type StartRunFailure = ActionFailure<StartRunField>;

/** Shown above the submit button when the messages are under the fields. */
export const NOT_STARTED = "The run was not started: see the messages under the fields above.";

function notStarted(fields: Partial<Record<StartRunField, string>>): StartRunFailure {
  return { ok: false, error: NOT_STARTED, fields };
}

const LABELS: Record<StartRunField, string> = {
  datasetId: "Dataset", skillVersionId: "Skill version", backend: "Backend", model: "Model", agent: "Agent", keepWorkspaces: "Keep workspaces", concurrency: "Concurrency",
  maxTurns: "Max turns", execTimeoutS: "Model-call timeout", taskTimeoutS: "Task timeout", maxCompletionTokens: "Max completion tokens",
  maxRetries: "Max retries", temperature: "Temperature", adaptiveConcurrency: "Adaptive concurrency", cache: "Response cache",
  requestsPerMinute: "Requests per minute", tokensPerMinute: "Tokens per minute", diagnosticMode: "Diagnostic mode", diagnosticInstruction: "Diagnostic instruction",
  selection: "Items", limit: "Limit", sampleSize: "Sample size", sampleSeed: "Seed", trials: "Trials per item", name: "Name",
};

/** A number typed into a text box: required unless `optional`, and a clear message for "abc". */
function numberField(field: StartRunField, optional = false) {
  const label = LABELS[field];
  const text = z.string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`) }).trim();
  const parse = (value: string) => (value === "" ? undefined : Number(value));
  const number = z.number({ error: `${label} must be a number` });
  return optional
    ? text.optional().transform((value) => (value === undefined ? undefined : parse(value))).pipe(number.optional())
    : text.min(1, `${label} is required`).transform(parse).pipe(number);
}

/** Shape and types of the posted form; ranges are checked by RunSettingsSchema, the one source of the limits. */
export const StartRunFormSchema = z
  .object({
    datasetId: chosenIdSchema("Dataset"),
    skillVersionId: chosenIdSchema("Skill version"),
    backend: z.enum(["openai", "azure", "baseline", "agent"], { error: "Choose a backend: openai, azure, baseline or agent" }),
    model: z.string().trim().max(200, "Model name is too long").optional(),
    // Only a name: the command, its arguments and environment come from the server's config file.
    agent: z.string().trim().max(64, "Agent name is too long").optional(),
    keepWorkspaces: z.literal("on", { error: "Keep workspaces is a checkbox" }).optional(),
    concurrency: numberField("concurrency"),
    maxTurns: numberField("maxTurns"),
    execTimeoutS: numberField("execTimeoutS"),
    taskTimeoutS: numberField("taskTimeoutS"),
    maxCompletionTokens: numberField("maxCompletionTokens"),
    maxRetries: numberField("maxRetries"),
    temperature: numberField("temperature", true),
    adaptiveConcurrency: z.literal("on", { error: "Adaptive concurrency is a checkbox" }).optional(),
    cache: z.literal("on", { error: "Response cache is a checkbox" }).optional(),
    requestsPerMinute: numberField("requestsPerMinute", true),
    tokensPerMinute: numberField("tokensPerMinute", true),
    diagnosticMode: z.literal("on", { error: "Diagnostic mode is a checkbox" }).optional(),
    diagnosticInstruction: z.string().max(20_000, "Diagnostic instruction is too long").optional(),
    selection: z.enum(["all", "limit", "sample"], { error: "Choose all items, a limit or a sample" }).default("all"),
    limit: numberField("limit", true),
    sampleSize: numberField("sampleSize", true),
    sampleSeed: numberField("sampleSeed", true),
    trials: numberField("trials", true),
    name: z.string().trim().max(200, "Name is too long").optional(),
  })
  .superRefine((form, ctx) => {
    if (form.selection === "limit" && form.limit === undefined) ctx.addIssue({ code: "custom", path: ["limit"], message: "Limit is required: how many of the first items to run" });
    if (form.selection === "sample" && form.sampleSize === undefined) ctx.addIssue({ code: "custom", path: ["sampleSize"], message: "Sample size is required" });
    if (form.diagnosticMode && !form.diagnosticInstruction?.trim()) ctx.addIssue({ code: "custom", path: ["diagnosticInstruction"], message: "Diagnostic mode needs an instruction" });
  });
export type StartRunForm = z.output<typeof StartRunFormSchema>;

/** Validates the New run form and stores a queued run; every problem comes back as a message on its field. */
export async function startRunFromForm(db: Db, formData: FormData, env: EnvSource = process.env): Promise<StartRunResult> {
  const parsed = StartRunFormSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return fieldFailure(parsed.error.issues, (path) => String(path[0]));
  const form = parsed.data;

  const settings = RunSettingsSchema.safeParse(toSettings(form));
  // The settings schema names sample.size and sample.seed; the form calls them sampleSize and sampleSeed.
  if (!settings.success) return fieldFailure(settings.error.issues, (path) => (path[0] === "sample" ? (path[1] === "seed" ? "sampleSeed" : "sampleSize") : String(path[0])));

  const backend = describeBackends(env).options.find((option) => option.backend === form.backend)!;
  if (!backend.configured) return notStarted({ backend: `${backend.label} is not configured on this server. ${backend.hint}` });
  if (form.backend === "agent" && !backend.agents?.some((agent) => agent.name === form.agent)) {
    return notStarted({ agent: form.agent ? `Agent "${form.agent}" is not configured on this server` : "Choose an agent" });
  }

  const config: RunConfig = {
    model:
      form.backend === "agent"
        ? { backend: "agent", agent: form.agent, ...(form.model ? { model: form.model } : {}), ...(form.keepWorkspaces === "on" ? { keepWorkspaces: true } : {}) }
        : {
            backend: form.backend,
            ...(form.backend === "baseline" ? {} : { model: form.model || backend.defaultModel }),
            ...(form.backend === "openai" && backend.baseURL ? { baseURL: backend.baseURL } : {}),
          },
    settings: settings.data,
  };
  const selection = ModelSelectionSchema.safeParse(config.model);
  if (!selection.success) return fieldFailure(selection.error.issues, (path) => String(path[0]));
  try {
    const run = await createRunFor(db, { datasetId: form.datasetId, skillVersionId: form.skillVersionId, config, name: form.name || null, env });
    return { ok: true, data: { runId: run.id } };
  } catch (error) {
    if (error instanceof NotFoundError) {
      const field = error.entity === "dataset" ? "datasetId" : "skillVersionId";
      return notStarted({ [field]: `${LABELS[field]} ${error.id} does not exist (was it deleted?)` });
    }
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function toSettings(form: StartRunForm): Record<keyof RunSettings, unknown> {
  return {
    concurrency: form.concurrency,
    maxTurns: form.maxTurns,
    execTimeoutS: form.execTimeoutS,
    taskTimeoutS: form.taskTimeoutS,
    taskTimeoutGraceS: undefined,
    maxCompletionTokens: form.maxCompletionTokens,
    maxRetries: form.maxRetries,
    temperature: form.temperature,
    adaptiveConcurrency: form.adaptiveConcurrency === "on",
    cache: form.cache === "on",
    concurrencyFloor: undefined,
    requestsPerMinute: form.requestsPerMinute,
    tokensPerMinute: form.tokensPerMinute,
    diagnosticMode: form.diagnosticMode === "on",
    diagnosticInstruction: form.diagnosticMode === "on" ? (form.diagnosticInstruction ?? "") : "",
    limit: form.selection === "limit" ? form.limit : undefined,
    sample: form.selection === "sample" ? { size: form.sampleSize, seed: form.sampleSeed ?? 0 } : undefined,
    // Only optimisations pick items by id; the form offers all, the first N or a sample.
    itemIds: undefined,
    trials: form.trials,
  };
}

/** The first issue per field, reworded with the field's label ("Concurrency must be at most 512"). */
function fieldFailure(issues: z.core.$ZodIssue[], fieldOf: (path: PropertyKey[]) => string): StartRunFailure {
  const fieldErrors: Partial<Record<StartRunField, string>> = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path) as StartRunField;
    if (!(field in LABELS) || fieldErrors[field]) continue;
    fieldErrors[field] = describeIssue(LABELS[field], issue);
  }
  return notStarted(fieldErrors);
}

function describeIssue(label: string, issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "too_small":
      if (issue.origin !== "number") return issue.message;
      return `${label} must be ${issue.inclusive === false ? "more than" : "at least"} ${String(issue.minimum)}`;
    case "too_big":
      if (issue.origin !== "number") return issue.message;
      return `${label} must be ${issue.inclusive === false ? "less than" : "at most"} ${String(issue.maximum)}`;
    case "invalid_type":
      return issue.expected === "int" ? `${label} must be a whole number` : issue.message;
    default:
      return issue.message;
  }
}
