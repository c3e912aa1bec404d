import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { AgentConfigError } from "../../agent/config";
import { newWorkerId, type Db, type RunRecord } from "../../db";
import { defaultBackend, redactBaseURL } from "../../model/environment";
import { createRunFor, executeRun, formatRolloutEvent } from "../../rollout";
import { RunSettingsSchema, type RunConfig } from "../../runs";
import { modelEnvironmentProblems, urlCredentialsProblem } from "../../model/url-credentials";
import { resolveDataset, resolveSkillVersion } from "../inputs";
import { batchedLog, CliInputError, logLine, parseIntegerOption, parseNumberOption, writeOut } from "../io";
import { runMeans } from "../../runs/metrics";

const OPTIONS = {
  dataset: { type: "string" },
  skill: { type: "string" },
  backend: { type: "string" },
  agent: { type: "string" },
  "keep-workspaces": { type: "boolean" },
  model: { type: "string" },
  "base-url": { type: "string" },
  name: { type: "string" },
  concurrency: { type: "string" },
  "max-turns": { type: "string" },
  limit: { type: "string" },
  sample: { type: "string" },
  seed: { type: "string" },
  "exec-timeout": { type: "string" },
  "task-timeout": { type: "string" },
  "task-timeout-grace": { type: "string" },
  "max-retries": { type: "string" },
  "max-completion-tokens": { type: "string" },
  temperature: { type: "string" },
  "diagnostic-instruction": { type: "string" },
  resume: { type: "string" },
} as const;

/** Exit codes: 0 completed, 1 failed, 2 bad input, 3 cancelled, 130 interrupted (resume it with --resume). */
export async function runCommand(db: () => Db, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: OPTIONS });
  // A key in a server URL would be quoted in every error: refused before anything is stored or called.
  const urlProblems = [...modelEnvironmentProblems(), urlCredentialsProblem("--base-url", values["base-url"], "OPENAI_API_KEY")].filter(Boolean);
  if (urlProblems.length > 0) throw new CliInputError(urlProblems.join("\n"));
  // `run <id> started` must be the first stderr line (scripts read the id from it), so notices wait.
  const notices: string[] = [];
  // A new run is created already leased to this process, so a dashboard's worker on the same database cannot take it.
  const workerId = newWorkerId();
  const runId = values.resume !== undefined ? parseIntegerOption("resume", values.resume)! : (await createFromOptions(db(), values, notices, workerId)).id;
  logLine(`run ${runId} started`);
  notices.forEach(logLine);

  const interrupt = new AbortController();
  const progress = batchedLog();
  const onSignal = () => {
    progress.flush();
    logLine(`run ${runId}: stopping (finished items are kept; resume with --resume ${runId})`);
    interrupt.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const started = performance.now();
  let run: RunRecord;
  try {
    run = await executeRun(db(), runId, { workerId, signal: interrupt.signal, onEvent: (event) => progress.line(formatRolloutEvent(event)) });
  } finally {
    progress.flush();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  if (run.error) logLine(`run ${runId} ${run.status}: ${run.error}`);
  await writeOut(`${JSON.stringify(runSummary(run, (performance.now() - started) / 1000))}\n`);
  return { completed: 0, failed: 1, cancelled: 3, interrupted: 130, queued: 1, running: 1 }[run.status];
}

type RunOptionValues = Partial<Record<Exclude<keyof typeof OPTIONS, "keep-workspaces">, string>> & { "keep-workspaces"?: boolean };

const OPTION_FOR_SETTING: Record<string, string> = {
  concurrency: "concurrency", maxTurns: "max-turns", limit: "limit", sample: "sample", execTimeoutS: "exec-timeout",
  taskTimeoutS: "task-timeout", taskTimeoutGraceS: "task-timeout-grace", maxRetries: "max-retries",
  maxCompletionTokens: "max-completion-tokens", temperature: "temperature", diagnosticInstruction: "diagnostic-instruction",
};

async function createFromOptions(db: Db, values: RunOptionValues, notices: string[], leaseFor: string): Promise<RunRecord> {
  if (!values.dataset) throw new CliInputError("run: --dataset FILE|ID is required (or --resume RUN_ID)");
  if (!values.skill) throw new CliInputError("run: --skill FILE|ID is required (or --resume RUN_ID)");
  const backend = values.backend ?? (values.agent !== undefined ? "agent" : values["base-url"] ? "openai" : defaultBackend());
  if (backend !== "openai" && backend !== "azure" && backend !== "baseline" && backend !== "agent") {
    throw new CliInputError(`--backend: expected openai, azure, baseline or agent, got "${backend}"`);
  }
  if (backend === "agent" && !values.agent) throw new CliInputError("run: --backend agent needs --agent NAME (an agent of skillboard.config.json)");
  if (backend !== "agent" && values.agent !== undefined) throw new CliInputError(`--agent: only with the agent backend, not "${backend}"`);
  if (backend !== "agent" && values["keep-workspaces"]) throw new CliInputError("--keep-workspaces: only with --agent NAME");
  if (backend === "agent" && values["base-url"]) throw new CliInputError("--base-url: not with --agent (the agent's config says where it connects)");
  const sampleSize = parseIntegerOption("sample", values.sample);
  const parsed = RunSettingsSchema.safeParse({
    concurrency: parseIntegerOption("concurrency", values.concurrency),
    maxTurns: parseIntegerOption("max-turns", values["max-turns"]),
    limit: parseIntegerOption("limit", values.limit),
    sample: sampleSize === undefined ? undefined : { size: sampleSize, seed: parseIntegerOption("seed", values.seed) ?? 0 },
    execTimeoutS: parseNumberOption("exec-timeout", values["exec-timeout"]),
    taskTimeoutS: parseNumberOption("task-timeout", values["task-timeout"]),
    taskTimeoutGraceS: parseNumberOption("task-timeout-grace", values["task-timeout-grace"]),
    maxRetries: parseIntegerOption("max-retries", values["max-retries"]),
    maxCompletionTokens: parseIntegerOption("max-completion-tokens", values["max-completion-tokens"]),
    temperature: parseNumberOption("temperature", values.temperature),
    diagnosticMode: values["diagnostic-instruction"] !== undefined,
    diagnosticInstruction: values["diagnostic-instruction"],
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const option = OPTION_FOR_SETTING[String(issue.path[0])] ?? String(issue.path[0]);
    throw new CliInputError(`run: --${option}: ${issue.message}`);
  }
  const notice = (line: string) => void notices.push(line);
  const dataset = await resolveDataset(db, values.dataset, notice);
  const skill = await resolveSkillVersion(db, values.skill, notice);
  const config: RunConfig = {
    model:
      backend === "agent"
        ? { backend, agent: values.agent, model: values.model, ...(values["keep-workspaces"] ? { keepWorkspaces: true } : {}) }
        : { backend, model: values.model, baseURL: values["base-url"] ? redactBaseURL(values["base-url"]) : undefined },
    settings: parsed.data,
  };
  if (backend === "baseline") notice("backend: offline extractive baseline (no language model)");
  try {
    return await createRunFor(db, { datasetId: dataset.id, skillVersionId: skill.id, config, name: values.name, leaseFor });
  } catch (error) {
    // A name the config does not declare, or a config with a mistake: the user's input to fix (exit 2).
    if (error instanceof AgentConfigError) throw new CliInputError(`--agent: ${error.message}`);
    if (error instanceof ZodError) throw new CliInputError(`run: ${error.issues[0]?.path.join(".")}: ${error.issues[0]?.message}`);
    throw error;
  }
}

/** The final stdout line. Means are over the items that have a result. */
export function runSummary(run: RunRecord, wallS: number) {
  const n = run.nDone;
  // The CLI's line has always said 0 for a run with no result (not null): scripts read it as a number.
  const means = runMeans(run);
  return {
    run_id: run.id,
    status: run.status,
    n,
    em: means.em ?? 0,
    f1: means.f1 ?? 0,
    sub_em: means.subEm ?? 0,
    errors: run.nErrors,
    timeouts: run.nTimeouts,
    wall_s: Math.round(wallS * 1000) / 1000,
  };
}

