/**
 * An optimisation's page data, as the page renders it first and as /api/optimizations/[id]/live answers it while
 * it runs (the same object, so the polled page never changes shape). Plain JSON: dates as ISO strings. No
 * optimizer call's text is in it.
 */
import { getOptimizationOverview, listOptimizationRunViews, listOptimizationUsage, listOptimizationVersions, type Db } from "@/lib/db";
import { pricesForDisplay } from "@/lib/model/prices";
import { optimizationCost, type OptimizationCost } from "@/lib/optimize/cost";
import { isAcceptedAction, stageGate, stageRecord, summarizeOptimization, type OptimizationSummaryView } from "@/lib/optimize/overview";

export interface StageRow {
  key: string;
  kind: string;
  epoch: number;
  globalStep: number;
  action: string | null;
  approval: string | null;
  accepted: boolean;
  candidateVersionId: number | null;
  trainBatch: number | null;
  scoreBefore: number | null;
  candidate: number | null;
  rule: string | null;
  pValue: number | null;
  fixed: number | null;
  broken: number | null;
  edits: number | null;
  editBudget: number | null;
}

export interface OptimizationLivePayload {
  optimization: {
    id: number; name: string | null; status: string; source: string; stopReason: string | null; error: string | null;
    skillId: number; skillName: string; initialVersionId: number; initialVersion: number; currentVersionId: number | null; bestVersionId: number | null;
    train: { id: number; name: string; itemCount: number }; val: { id: number; name: string; itemCount: number }; test: { id: number; name: string; itemCount: number } | null;
    targetCalls: number; optimizerCalls: number; optimizerTokens: number; optimizerInFlight: number; createdAt: string; startedAt: string | null; finishedAt: string | null;
  };
  summary: OptimizationSummaryView;
  stages: StageRow[];
  /** The stage whose candidate waits for a person (manual approval). */
  pendingKey: string | null;
  /** Runs of the loop still going: what the loop is doing now. */
  activeRuns: { key: string; runId: number; nDone: number; itemsTotal: number; inFlight: number }[];
  lineage: { id: number; version: number; parentVersionId: number | null; originStepKey: string | null; accepted: boolean | null }[];
  /** The spend in US dollars where the models' prices are known (null: unknown). */
  cost: OptimizationCost;
}

export async function loadOptimizationLive(db: Db, id: number): Promise<OptimizationLivePayload> {
  const row = await getOptimizationOverview(db, id);
  const [runs, versions, usage] = await Promise.all([listOptimizationRunViews(db, id), listOptimizationVersions(db, id), listOptimizationUsage(db, [id])]);
  const summary = summarizeOptimization(row);
  const stages: StageRow[] = row.stages.map((stage) => {
    const record = stageRecord(stage);
    const gate = stageGate(stage);
    const stats = gate?.statistics ?? null;
    const num = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
    return {
      key: stage.key, kind: stage.kind, epoch: stage.epoch, globalStep: stage.globalStep, action: stage.action, approval: stage.approval,
      accepted: isAcceptedAction(stage.action), candidateVersionId: stage.candidateVersionId, trainBatch: num(record.rollout_hard),
      scoreBefore: num(gate?.score_before), candidate: num(gate?.candidate_score ?? record.selection_hard), rule: gate?.rule ?? null,
      pValue: num(stats?.p_value), fixed: num(stats?.fixed), broken: num(stats?.broken), edits: num(record.n_edits_ranked), editBudget: num(record.edit_budget),
    };
  });
  // Which step each version was a candidate of, and whether the loop went on with it.
  const verdict = new Map(row.stages.filter((stage) => stage.candidateVersionId !== null).map((stage) => [stage.candidateVersionId!, isAcceptedAction(stage.action) || stage.action === "inject_placeholder" || stage.kind === "meta_skill"]));
  return {
    optimization: {
      id: row.id, name: row.name, status: row.status, source: row.source, stopReason: row.stopReason, error: row.error,
      skillId: row.skillId, skillName: row.skillName, initialVersionId: row.initialVersionId, initialVersion: row.initialVersion,
      currentVersionId: row.currentVersionId, bestVersionId: row.bestVersionId, train: row.train, val: row.val, test: row.test,
      targetCalls: row.targetCalls, optimizerCalls: row.optimizerCalls, optimizerTokens: row.optimizerTokens, optimizerInFlight: row.optimizerInFlight,
      createdAt: row.createdAt.toISOString(), startedAt: row.startedAt?.toISOString() ?? null, finishedAt: row.finishedAt?.toISOString() ?? null,
    },
    summary,
    stages,
    pendingKey: row.status === "waiting_for_approval" ? (row.stages.findLast((stage) => stage.approval === "pending")?.key ?? null) : null,
    activeRuns: runs.filter((run) => run.status === "running" || run.status === "queued").map((run) => ({ key: run.key, runId: run.runId, nDone: run.nDone, itemsTotal: run.itemsTotal, inFlight: run.inFlight })),
    lineage: versions.map((version) => ({ id: version.id, version: version.version, parentVersionId: version.parentVersionId, originStepKey: version.originStepKey, accepted: version.id === row.initialVersionId ? null : (verdict.get(version.id) ?? null) })),
    cost: optimizationCost(row, usage.get(id)!, pricesForDisplay()),
  };
}
