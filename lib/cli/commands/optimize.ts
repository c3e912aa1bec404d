import { parseArgs } from "node:util";
import { getOptimization, listOptimizationSteps, newWorkerId, type Db, type OptimizationRecord } from "../../db";
import { createOptimizationFor, executeOptimization, validateOptimization, type CreateOptimizationForInput } from "../../optimize/engine";
import { estimateOptimization } from "../../optimize/engine/estimate";
import { OptimizeSettingsError } from "../../optimize/settings";
import { resolveDataset, resolveSkillVersion } from "../inputs";
import { CliInputError, logLine, parseIntegerOption, untilInterrupted, writeOut } from "../io";
import { optimizeAdminCommand } from "./optimize-admin";
import { capsFromOptions, OPTIMIZE_OPTIONS, optimizerFromOptions, settingsFromOptions, type OptimizeOptionValues } from "./optimize-options";
import { asInputError, refuseCredentialURLs, targetConfigFromOptions } from "./target-options";

/** Exit codes as for `run`: 0 completed (also when a cap stopped it), 1 failed, 2 bad input, 3 cancelled, 130 interrupted. */
const EXIT_CODES: Record<OptimizationRecord["status"], number> = {
  completed: 0, failed: 1, cancelled: 3, interrupted: 130, waiting_for_approval: 0, queued: 1, running: 1,
};

export async function optimizeCommand(db: () => Db, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action === "start" || action === "estimate") {
    const { values } = parseArgs({ args: rest, options: OPTIMIZE_OPTIONS });
    return action === "start" ? start(db(), values) : estimate(db(), values);
  }
  return optimizeAdminCommand(db, action, rest);
}

async function inputFromOptions(db: Db, values: OptimizeOptionValues, notice: (line: string) => void, leaseFor?: string): Promise<CreateOptimizationForInput> {
  refuseCredentialURLs([["--base-url", values["base-url"]], ["--optimizer-base-url", values["optimizer-base-url"]]]);
  for (const required of ["train", "val", "skill"] as const) {
    if (!values[required]) throw new CliInputError(`optimize: --${required} ${required === "skill" ? "FILE|ID" : "FILE|ID"} is required (or --resume ID)`);
  }
  const settings = settingsFromOptions(values);
  // The target's run settings default to the SearchQA env section (workers, exec_timeout, max_turns, max tokens).
  const targetConfig = targetConfigFromOptions("optimize", values, notice, { concurrency: 24, execTimeoutS: 120, maxTurns: 1, maxCompletionTokens: 16384 });
  const train = await resolveDataset(db, values.train!, notice);
  const val = await resolveDataset(db, values.val!, notice);
  const test = values.test ? await resolveDataset(db, values.test, notice) : null;
  const skill = await resolveSkillVersion(db, values.skill!, notice);
  const gradient = settings.gradient as { analyst_workers?: number };
  return {
    name: values.name ?? null, skillVersionId: skill.id, trainDatasetId: train.id, valDatasetId: val.id, testDatasetId: test?.id ?? null,
    settings, targetConfig, optimizer: optimizerFromOptions(values, gradient.analyst_workers ?? 16), caps: capsFromOptions(values), leaseFor,
  };
}

function settingsProblem(error: unknown): unknown {
  if (error instanceof OptimizeSettingsError) return new CliInputError(`optimize: ${error.message}`);
  return asInputError("optimize", error);
}

async function start(db: Db, values: OptimizeOptionValues): Promise<number> {
  const workerId = newWorkerId();
  const notices: string[] = [];
  let id: number;
  if (values.resume !== undefined) {
    id = parseIntegerOption("resume", values.resume)!;
    await getOptimization(db, id);
  } else {
    try {
      id = (await createOptimizationFor(db, await inputFromOptions(db, values, (line) => void notices.push(line), workerId))).id;
    } catch (error) {
      throw settingsProblem(error);
    }
  }
  // `optimization <id> started` is the first stderr line: scripts read the id from it.
  logLine(`optimization ${id} started`);
  notices.forEach(logLine);
  const started = performance.now();
  const resumable = ["queued", "running", "interrupted"] as const;
  const { record } = await untilInterrupted(`optimization ${id}: stopping (finished work is kept; resume with --resume ${id})`, (signal) =>
    executeOptimization(db, id, { workerId, signal, log: logLine, claimableStatuses: resumable }),
  );
  if (record.error) logLine(`optimization ${id} ${record.status}: ${record.error}`);
  if (record.stopReason) logLine(`optimization ${id}: ${record.stopReason}`);
  await writeOut(`${JSON.stringify(await optimizationSummary(db, record, (performance.now() - started) / 1000))}\n`);
  return EXIT_CODES[record.status];
}

async function estimate(db: Db, values: OptimizeOptionValues): Promise<number> {
  let input: CreateOptimizationForInput;
  try {
    input = await inputFromOptions(db, values, logLine);
    const valid = await validateOptimization(db, input);
    await writeOut(`${JSON.stringify(await estimateOptimization(db, input, valid))}\n`);
  } catch (error) {
    throw settingsProblem(error);
  }
  return 0;
}

/** The final stdout line of `optimize start` (outside scripts read these keys). */
export async function optimizationSummary(db: Db, record: OptimizationRecord, wallS: number) {
  const stages = await listOptimizationSteps(db, record.id);
  const steps = stages.filter((step) => step.kind === "step");
  const summary = record.summaryJson ? (JSON.parse(record.summaryJson) as Record<string, number | null>) : null;
  const baseline = stages.find((step) => step.kind === "baseline");
  const state = JSON.parse(record.stateJson) as { best_score?: number };
  return {
    optimization_id: record.id,
    status: record.status,
    ...(record.stopReason ? { stop_reason: record.stopReason } : {}),
    steps: steps.length,
    accepted: steps.filter((step) => step.action?.includes("accept")).length,
    initial_val: baseline ? ((JSON.parse(baseline.recordJson) as { current_score?: number }).current_score ?? null) : null,
    best_val: state.best_score ?? null,
    best_version_id: record.bestVersionId,
    test: { initial: summary?.baseline_test_hard ?? null, best: summary?.test_hard ?? null, final: summary?.final_test_hard ?? null },
    target_calls: record.targetCalls,
    optimizer_tokens: record.optimizerTokens,
    wall_s: Math.round(wallS * 1000) / 1000,
  };
}
