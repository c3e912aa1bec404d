/**
 * The target model's command-line options, shared by `run` and `optimize` (the optimisation's rollouts are runs):
 * backend, model, base URL, agent, and the run settings.
 */
import { ZodError } from "zod";
import { AgentConfigError } from "../../agent/config";
import { defaultBackend, redactBaseURL } from "../../model/environment";
import { modelEnvironmentProblems, urlCredentialsProblem } from "../../model/url-credentials";
import { RunSettingsSchema, type RunConfig, type RunSettings } from "../../runs";
import { CliInputError, parseIntegerOption, parseNumberOption } from "../io";

export const TARGET_MODEL_OPTIONS = {
  backend: { type: "string" },
  agent: { type: "string" },
  "keep-workspaces": { type: "boolean" },
  model: { type: "string" },
  "base-url": { type: "string" },
  concurrency: { type: "string" },
  "max-turns": { type: "string" },
  "exec-timeout": { type: "string" },
  "task-timeout": { type: "string" },
  "task-timeout-grace": { type: "string" },
  "max-retries": { type: "string" },
  "max-completion-tokens": { type: "string" },
  temperature: { type: "string" },
  "diagnostic-instruction": { type: "string" },
  "adaptive-concurrency": { type: "boolean" },
  cache: { type: "boolean" },
  "concurrency-floor": { type: "string" },
  rpm: { type: "string" },
  tpm: { type: "string" },
} as const;

type BooleanOption = "keep-workspaces" | "adaptive-concurrency" | "cache";
type StringOption = Exclude<keyof typeof TARGET_MODEL_OPTIONS, BooleanOption>;
export type TargetModelOptionValues = Partial<Record<StringOption, string>> & Partial<Record<BooleanOption, boolean>>;

const OPTION_FOR_SETTING: Record<string, string> = {
  concurrency: "concurrency", maxTurns: "max-turns", limit: "limit", sample: "sample", execTimeoutS: "exec-timeout",
  taskTimeoutS: "task-timeout", taskTimeoutGraceS: "task-timeout-grace", maxRetries: "max-retries",
  maxCompletionTokens: "max-completion-tokens", temperature: "temperature", diagnosticInstruction: "diagnostic-instruction",
  concurrencyFloor: "concurrency-floor", requestsPerMinute: "rpm", tokensPerMinute: "tpm", trials: "trials",
};

/** A key in a server URL would be quoted in every error: refused before anything is stored or called. */
export function refuseCredentialURLs(urls: readonly (readonly [string, string | undefined])[]): void {
  const problems = [...modelEnvironmentProblems(), ...urls.map(([option, url]) => urlCredentialsProblem(option, url, "OPENAI_API_KEY"))].filter(Boolean);
  if (problems.length > 0) throw new CliInputError(problems.join("\n"));
}

/** The run configuration the options describe; `extra` adds settings the command sets itself (selection, defaults). */
export function targetConfigFromOptions(
  command: string,
  values: TargetModelOptionValues,
  notice: (line: string) => void,
  extra: Partial<Record<keyof RunSettings, unknown>> = {},
): RunConfig {
  const backend = values.backend ?? (values.agent !== undefined ? "agent" : values["base-url"] ? "openai" : defaultBackend());
  if (backend !== "openai" && backend !== "azure" && backend !== "baseline" && backend !== "agent") {
    throw new CliInputError(`--backend: expected openai, azure, baseline or agent, got "${backend}"`);
  }
  if (backend === "agent" && !values.agent) throw new CliInputError(`${command}: --backend agent needs --agent NAME (an agent of skillboard.config.json)`);
  if (backend !== "agent" && values.agent !== undefined) throw new CliInputError(`--agent: only with the agent backend, not "${backend}"`);
  if (backend !== "agent" && values["keep-workspaces"]) throw new CliInputError("--keep-workspaces: only with --agent NAME");
  if (backend === "agent" && values["base-url"]) throw new CliInputError("--base-url: not with --agent (the agent's config says where it connects)");
  const given = {
    concurrency: parseIntegerOption("concurrency", values.concurrency),
    maxTurns: parseIntegerOption("max-turns", values["max-turns"]),
    execTimeoutS: parseNumberOption("exec-timeout", values["exec-timeout"]),
    taskTimeoutS: parseNumberOption("task-timeout", values["task-timeout"]),
    taskTimeoutGraceS: parseNumberOption("task-timeout-grace", values["task-timeout-grace"]),
    maxRetries: parseIntegerOption("max-retries", values["max-retries"]),
    maxCompletionTokens: parseIntegerOption("max-completion-tokens", values["max-completion-tokens"]),
    temperature: parseNumberOption("temperature", values.temperature),
    diagnosticMode: values["diagnostic-instruction"] !== undefined,
    diagnosticInstruction: values["diagnostic-instruction"],
    adaptiveConcurrency: values["adaptive-concurrency"],
    cache: values.cache,
    concurrencyFloor: parseIntegerOption("concurrency-floor", values["concurrency-floor"]),
    requestsPerMinute: parseNumberOption("rpm", values.rpm),
    tokensPerMinute: parseNumberOption("tpm", values.tpm),
  };
  const merged = Object.fromEntries(Object.entries({ ...extra, ...given }).map(([key, value]) => [key, value ?? (extra as Record<string, unknown>)[key]]));
  const parsed = RunSettingsSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const option = OPTION_FOR_SETTING[String(issue.path[0])] ?? String(issue.path[0]);
    throw new CliInputError(`${command}: --${option}: ${issue.message}`);
  }
  if (backend === "baseline") notice("backend: offline extractive baseline (no language model)");
  return {
    model:
      backend === "agent"
        ? { backend, agent: values.agent, model: values.model, ...(values["keep-workspaces"] ? { keepWorkspaces: true } : {}) }
        : { backend, model: values.model, baseURL: values["base-url"] ? redactBaseURL(values["base-url"]) : undefined },
    settings: parsed.data,
  };
}

/** A name the agents file does not declare, or a config with a mistake: the user's input to fix (exit 2). */
export function asInputError(command: string, error: unknown): unknown {
  if (error instanceof AgentConfigError) return new CliInputError(`--agent: ${error.message}`);
  if (error instanceof ZodError) return new CliInputError(`${command}: ${error.issues[0]?.path.join(".")}: ${error.issues[0]?.message}`);
  return error;
}
