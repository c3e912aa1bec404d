import { getDataset, getItemTrialCounts, getRunWithNames, getSkillVersion, type Db } from "../db";
import { runMeans } from "../runs/metrics";
import { summarizeTrials, type TrialSummary } from "../runs/trials";

/**
 * Everything about a run but its items, as one JSON document: the configuration snapshot (which never
 * holds a secret), metrics, counts, timings, and the identity of the skill version and dataset with
 * their content hashes, so a result can be traced to exactly what produced it.
 */
export async function buildRunSummary(db: Db, runId: number) {
  const run = await getRunWithNames(db, runId);
  const [dataset, skill] = await Promise.all([getDataset(db, run.datasetId), getSkillVersion(db, run.skillVersionId)]);
  const n = run.nDone;
  const means = runMeans(run);
  const k = run.config.settings.trials;
  const trials = k > 1 ? trialsDocument(summarizeTrials(await getItemTrialCounts(db, runId), k)) : null;
  return {
    run: {
      id: run.id,
      name: run.name,
      status: run.status,
      source: run.source,
      error: run.error,
      backend: run.backend,
      model: run.model,
      created_at: run.createdAt.toISOString(),
      started_at: run.startedAt?.toISOString() ?? null,
      finished_at: run.finishedAt?.toISOString() ?? null,
      system_prompt: run.systemPrompt,
    },
    config: run.config,
    skill: { version_id: skill.id, name: skill.skillName, version: skill.version, sha256: skill.hash, size_bytes: skill.sizeBytes },
    // sha256 is the file's (what `sha256sum` prints; null when not recorded), items_sha256 that of the parsed items.
    dataset: { id: dataset.id, name: dataset.name, file_name: dataset.fileName, sha256: dataset.fileSha256, items_sha256: dataset.hash, item_count: dataset.itemCount },
    metrics: { n, em: means.em, f1: means.f1, sub_em: means.subEm },
    counts: {
      items_total: run.itemsTotal,
      done: n,
      correct: Math.round(run.emSum),
      wrong: run.nAgentOk - Math.round(run.emSum),
      errors: run.nErrors,
      timeouts: run.nTimeouts,
    },
    tokens: { prompt: run.promptTokens, completion: run.completionTokens },
    calls: { retries: run.retries, rate_limited: run.rateLimited },
    timings: { active_s: run.activeMs / 1000, mean_latency_ms: means.latencyMs },
    // Runs with repeated trials (null otherwise): metrics above are over all trials; these are per item.
    trials,
  };
}

function trialsDocument(summary: TrialSummary) {
  return {
    per_item: summary.k,
    items: summary.items,
    items_with_all_trials: summary.complete,
    always_right: summary.alwaysRight,
    always_wrong: summary.alwaysWrong,
    flaky: summary.flaky,
    pass_at_k: summary.passAtK,
    pass_hat_k: summary.passHatK,
    em_item_mean: summary.em.mean,
    em_standard_error: summary.em.standardError,
  };
}

export type RunSummaryDocument = Awaited<ReturnType<typeof buildRunSummary>>;
