import type { RunRecord } from "@/lib/db";
import { RunSettingsSchema } from "@/lib/runs/run-config";
import type { BackendKind, BackendOption } from "@/app/_lib/backends";

/** The New run form's initial values, as the text its inputs hold. */
export interface StartRunDefaults {
  datasetId: string;
  skillVersionId: string;
  backend: BackendKind;
  model: string;
  /** The agent backend: which agent, and whether correct items keep their workspaces. */
  agent: string;
  keepWorkspaces: boolean;
  concurrency: string;
  maxTurns: string;
  execTimeoutS: string;
  taskTimeoutS: string;
  maxCompletionTokens: string;
  maxRetries: string;
  temperature: string;
  adaptiveConcurrency: boolean;
  cache: boolean;
  requestsPerMinute: string;
  tokensPerMinute: string;
  diagnosticMode: boolean;
  diagnosticInstruction: string;
  selection: "all" | "limit" | "sample";
  limit: string;
  sampleSize: string;
  sampleSeed: string;
  trials: string;
  name: string;
}

const text = (value: number | undefined) => (value === undefined ? "" : String(value));

/**
 * The engine's defaults, or another run's settings (`?from=`), with `?datasetId=` / `?skillVersionId=` on top, and
 * where none of those chose, the `obvious` choice (the only dataset; the latest version of the skill). A copied
 * run whose backend is no longer configured falls back to the server's default backend.
 */
export function startRunDefaults(input: {
  backends: { options: BackendOption[]; defaultBackend: BackendKind };
  from?: RunRecord;
  datasetId?: number;
  skillVersionId?: number;
  obvious?: { datasetId?: number; skillVersionId?: number };
}): StartRunDefaults {
  const settings = input.from?.config.settings ?? RunSettingsSchema.parse({});
  const fromBackend = input.from?.config.model.backend;
  const usable = (backend: string | undefined) => input.backends.options.find((option) => option.backend === backend && option.configured);
  const backend = usable(fromBackend) ?? usable(input.backends.defaultBackend) ?? input.backends.options.find((option) => option.configured)!;
  const sameBackend = backend.backend === fromBackend && input.from !== undefined;
  // An agent run's model column is a label ("codex/gpt-5.5"): copy the model it chose, if any.
  const model = sameBackend ? (backend.backend === "agent" ? (input.from?.config.model.model ?? "") : input.from!.model) : backend.defaultModel;
  const agents = input.backends.options.find((option) => option.backend === "agent")?.agents ?? [];
  const fromAgent = input.from?.config.model.agent;
  const agent = agents.find((candidate) => candidate.name === fromAgent)?.name ?? agents[0]?.name ?? "";
  const datasetId = input.datasetId ?? input.from?.datasetId ?? input.obvious?.datasetId;
  const skillVersionId = input.skillVersionId ?? input.from?.skillVersionId ?? input.obvious?.skillVersionId;
  return {
    datasetId: text(datasetId),
    skillVersionId: text(skillVersionId),
    backend: backend.backend,
    model,
    agent,
    keepWorkspaces: input.from?.config.model.keepWorkspaces ?? false,
    concurrency: text(settings.concurrency),
    maxTurns: text(settings.maxTurns),
    execTimeoutS: text(settings.execTimeoutS),
    taskTimeoutS: text(settings.taskTimeoutS),
    maxCompletionTokens: text(settings.maxCompletionTokens),
    maxRetries: text(settings.maxRetries),
    temperature: text(settings.temperature),
    adaptiveConcurrency: settings.adaptiveConcurrency,
    cache: settings.cache,
    requestsPerMinute: text(settings.requestsPerMinute),
    tokensPerMinute: text(settings.tokensPerMinute),
    diagnosticMode: settings.diagnosticMode,
    diagnosticInstruction: settings.diagnosticInstruction,
    selection: settings.sample ? "sample" : settings.limit !== undefined ? "limit" : "all",
    limit: text(settings.limit),
    sampleSize: text(settings.sample?.size),
    sampleSeed: text(settings.sample?.seed ?? 0),
    trials: text(settings.trials),
    name: "",
  };
}
