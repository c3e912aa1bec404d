import { parseArgs } from "node:util";
import { countCachedResults, getItemTrialCounts, newWorkerId, queueRunForResume, type Db, type RunRecord } from "../../db";
import { engineOf } from "../../db/engine";
import { takePartInQueuedRun } from "../../rollout/queued-run";
import { summarizeTrials } from "../../runs/trials";
import { createRunFor, executeRun, formatRolloutEvent } from "../../rollout";
import { resolveDataset, resolveSkillVersion } from "../inputs";
import { batchedLog, CliInputError, logLine, parseIntegerOption, untilInterrupted, writeOut } from "../io";
import { runMeans } from "../../runs/metrics";
import { asInputError, refuseCredentialURLs, TARGET_MODEL_OPTIONS, targetConfigFromOptions, type TargetModelOptionValues } from "./target-options";

const OPTIONS = {
  dataset: { type: "string" },
  skill: { type: "string" },
  name: { type: "string" },
  limit: { type: "string" },
  sample: { type: "string" },
  seed: { type: "string" },
  trials: { type: "string" },
  resume: { type: "string" },
  detach: { type: "boolean" },
  ...TARGET_MODEL_OPTIONS,
} as const;

/** Exit codes: 0 completed, 1 failed, 2 bad input, 3 cancelled, 130 interrupted (resume it with --resume). */
export async function runCommand(db: () => Db, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: OPTIONS });
  // A key in a server URL would be quoted in every error: refused before anything is stored or called.
  refuseCredentialURLs([["--base-url", values["base-url"]]]);
  // `run <id> started` must be the first stderr line (scripts read the id from it), so notices wait.
  const notices: string[] = [];
  // PostgreSQL: the run goes on the queue and this process is one of its workers (queue-worker.ts). SQLite: a new run
  // is created already leased to this process, so a dashboard's worker on the same database cannot take it.
  // --detach: queued for the workers (the dashboard's, or `worker` processes), on either engine.
  const shared = engineOf(db()) === "postgresql";
  const workerId = newWorkerId();
  const leaseFor = shared || values.detach ? undefined : workerId;
  if (values.resume !== undefined && values.detach) {
    const resumed = await queueRunForResume(db(), parseIntegerOption("resume", values.resume)!).catch((error: unknown) => {
      throw asInputError("run", error);
    });
    return detached(resumed.id);
  }
  const runId = values.resume !== undefined ? parseIntegerOption("resume", values.resume)! : (await createFromOptions(db(), values, notices, leaseFor)).id;
  if (values.detach) {
    notices.forEach(logLine);
    return detached(runId);
  }
  logLine(`run ${runId} started`);
  notices.forEach(logLine);

  const started = performance.now();
  // Progress lines are written in batches; whatever is pending goes out before any other line.
  const progress = batchedLog();
  let run: RunRecord;
  try {
    run = await untilInterrupted(
      `run ${runId}: stopping (finished items are kept; resume with --resume ${runId})`,
      (signal) =>
        shared
          ? takePartInQueuedRun(db(), runId, { signal, onEvent: (event) => progress.line(formatRolloutEvent(event)) })
          : executeRun(db(), runId, { workerId, signal, onEvent: (event) => progress.line(formatRolloutEvent(event)) }),
      () => progress.flush(),
    );
  } finally {
    progress.flush();
  }
  if (run.error) logLine(`run ${runId} ${run.status}: ${run.error}`);
  const summary = runSummary(run, (performance.now() - started) / 1000);
  // With the response cache on, how many items reused a stored reply (they cost no tokens).
  if (run.config.settings.cache) {
    const cached = await countCachedResults(db(), runId);
    logLine(`run ${runId}: ${cached} of ${run.nDone} items answered from the response cache`);
    Object.assign(summary, { cached });
  }
  // Repeated trials: consistency per item, pass@k and pass^k, and the EM's standard error over items.
  const k = run.config.settings.trials;
  if (k > 1) {
    const trials = summarizeTrials(await getItemTrialCounts(db(), runId), k);
    logLine(
      `run ${runId}: ${trials.items} items × ${k} trials: ${trials.alwaysRight} always right, ${trials.alwaysWrong} always wrong, ${trials.flaky} flaky`,
    );
    Object.assign(summary, {
      trials: k,
      items: trials.items,
      always_right: trials.alwaysRight,
      always_wrong: trials.alwaysWrong,
      flaky: trials.flaky,
      [`pass_at_${k}`]: trials.passAtK,
      [`pass_hat_${k}`]: trials.passHatK,
      em_standard_error: trials.em.standardError,
    });
  }
  await writeOut(`${JSON.stringify(summary)}\n`);
  return { completed: 0, failed: 1, cancelled: 3, interrupted: 130, queued: 1, running: 1 }[run.status];
}

type RunOptionValues = TargetModelOptionValues & Partial<Record<"dataset" | "skill" | "name" | "limit" | "sample" | "seed" | "trials" | "resume", string>>;

async function detached(runId: number): Promise<number> {
  logLine(`run ${runId} queued for the workers`);
  await writeOut(`${JSON.stringify({ run_id: runId })}\n`);
  return 0;
}

async function createFromOptions(db: Db, values: RunOptionValues, notices: string[], leaseFor: string | undefined): Promise<RunRecord> {
  if (!values.dataset) throw new CliInputError("run: --dataset FILE|ID is required (or --resume RUN_ID)");
  if (!values.skill) throw new CliInputError("run: --skill FILE|ID is required (or --resume RUN_ID)");
  const notice = (line: string) => void notices.push(line);
  const sampleSize = parseIntegerOption("sample", values.sample);
  const config = targetConfigFromOptions("run", values, notice, {
    limit: parseIntegerOption("limit", values.limit),
    sample: sampleSize === undefined ? undefined : { size: sampleSize, seed: parseIntegerOption("seed", values.seed) ?? 0 },
    trials: parseIntegerOption("trials", values.trials),
  });
  const dataset = await resolveDataset(db, values.dataset, notice);
  const skill = await resolveSkillVersion(db, values.skill, notice);
  try {
    return await createRunFor(db, { datasetId: dataset.id, skillVersionId: skill.id, config, name: values.name, leaseFor });
  } catch (error) {
    throw asInputError("run", error);
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

