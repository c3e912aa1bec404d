import type { Db } from "./client";
import { NotFoundError } from "./errors";
import { getOptimization, type OptimizationRecord } from "./optimizations";

/**
 * What the optimisation pages read: lists and stage tables without any optimizer call's text (a call's prompt and
 * reply are loaded one at a time, on demand), the runs an optimisation made with their scores, and the versions
 * it proposed. Plain objects; the JSON columns are parsed by the page's helpers.
 */

export interface NamedDataset {
  id: number;
  name: string;
  itemCount: number;
}

export interface OptimizationNames {
  skillName: string;
  initialVersion: number;
  train: NamedDataset;
  val: NamedDataset;
  test: NamedDataset | null;
}

/** The stage columns a list or table needs (no batch ids, no edits). */
export interface StageBrief {
  key: string;
  kind: string;
  ordinal: number;
  epoch: number;
  globalStep: number;
  action: string | null;
  approval: string | null;
  candidateVersionId: number | null;
  currentVersionId: number | null;
  bestVersionId: number | null;
  gateJson: string | null;
  recordJson: string;
  createdAt: Date;
}

export interface OptimizationOverview extends OptimizationRecord, OptimizationNames {
  stages: StageBrief[];
}

const STAGE_BRIEF = {
  key: true, kind: true, ordinal: true, epoch: true, globalStep: true, action: true, approval: true, candidateVersionId: true,
  currentVersionId: true, bestVersionId: true, gateJson: true, recordJson: true, createdAt: true,
} as const;

async function namesOf(db: Db, rows: readonly OptimizationRecord[]): Promise<Map<number, OptimizationNames>> {
  const datasetIds = [...new Set(rows.flatMap((row) => [row.trainDatasetId, row.valDatasetId, ...(row.testDatasetId === null ? [] : [row.testDatasetId])]))];
  const versionIds = [...new Set(rows.map((row) => row.initialVersionId))];
  const [datasets, versions] = await Promise.all([
    db.dataset.findMany({ where: { id: { in: datasetIds } }, select: { id: true, name: true, itemCount: true } }),
    db.skillVersion.findMany({ where: { id: { in: versionIds } }, select: { id: true, version: true, skill: { select: { name: true } } } }),
  ]);
  // Id 0: an optimisation imported from a SkillOpt directory, which names no dataset of this database.
  const dataset = (id: number): NamedDataset =>
    datasets.find((row) => row.id === id) ?? { id, name: id === 0 ? "not recorded (imported)" : `dataset ${id} (deleted)`, itemCount: 0 };
  return new Map(rows.map((row) => {
    const version = versions.find((candidate) => candidate.id === row.initialVersionId);
    return [row.id, {
      skillName: version?.skill.name ?? `skill ${row.skillId}`,
      initialVersion: version?.version ?? 0,
      train: dataset(row.trainDatasetId),
      val: dataset(row.valDatasetId),
      test: row.testDatasetId === null ? null : dataset(row.testDatasetId),
    }];
  }));
}

/** Every optimisation, newest first, with its names and stage briefs. */
export async function listOptimizationOverviews(db: Db): Promise<OptimizationOverview[]> {
  const rows = (await db.optimization.findMany({ orderBy: { id: "desc" } })).map((row) => ({ ...row, status: row.status as OptimizationRecord["status"] }));
  const [names, stages] = await Promise.all([
    namesOf(db, rows),
    db.optimizationStep.findMany({ where: { optimizationId: { in: rows.map((row) => row.id) } }, select: { ...STAGE_BRIEF, optimizationId: true }, orderBy: { ordinal: "asc" } }),
  ]);
  return rows.map((row) => ({ ...row, ...names.get(row.id)!, stages: stages.filter((stage) => stage.optimizationId === row.id) }));
}

export async function getOptimizationOverview(db: Db, id: number): Promise<OptimizationOverview> {
  const row = await getOptimization(db, id);
  const [names, stages] = await Promise.all([
    namesOf(db, [row]),
    db.optimizationStep.findMany({ where: { optimizationId: id }, select: STAGE_BRIEF, orderBy: { ordinal: "asc" } }),
  ]);
  return { ...row, ...names.get(id)!, stages };
}

/** A run the optimisation made, by purpose, with what a page shows of it. */
export interface OptimizationRunView {
  key: string;
  runId: number;
  status: string;
  datasetId: number;
  skillVersionId: number;
  itemsTotal: number;
  nDone: number;
  emSum: number;
  inFlight: number;
}

export async function listOptimizationRunViews(db: Db, optimizationId: number, keyPrefix?: string): Promise<OptimizationRunView[]> {
  const links = await db.optimizationRun.findMany({
    where: { optimizationId, ...(keyPrefix ? { key: { startsWith: keyPrefix } } : {}) },
    select: { key: true, run: { select: { id: true, status: true, datasetId: true, skillVersionId: true, itemsTotal: true, nDone: true, emSum: true, inFlight: true } } },
    orderBy: { runId: "asc" },
  });
  return links.map(({ key, run }) => ({ key, runId: run.id, status: run.status, datasetId: run.datasetId, skillVersionId: run.skillVersionId, itemsTotal: run.itemsTotal, nDone: run.nDone, emSum: run.emSum, inFlight: run.inFlight }));
}

/** A version in an optimisation's lineage (no text). */
export interface LineageVersion {
  id: number;
  version: number;
  parentVersionId: number | null;
  originOptimizationId: number | null;
  originStepKey: string | null;
  note: string | null;
  createdAt: Date;
}

/**
 * The initial version and every version the optimisation proposed or went on with, oldest first. A candidate whose
 * text an earlier optimisation already proposed is that earlier version (a text is stored once), so the stages'
 * versions are gathered as well as the versions this optimisation created.
 */
export async function listOptimizationVersions(db: Db, optimizationId: number): Promise<LineageVersion[]> {
  const row = await getOptimization(db, optimizationId);
  const stages = await db.optimizationStep.findMany({ where: { optimizationId }, select: { candidateVersionId: true, currentVersionId: true, bestVersionId: true, approvalVersionId: true } });
  const ids = [row.initialVersionId, ...stages.flatMap((stage) => [stage.candidateVersionId, stage.currentVersionId, stage.bestVersionId, stage.approvalVersionId])].filter((id): id is number => id !== null);
  return db.skillVersion.findMany({
    where: { OR: [{ id: { in: [...new Set(ids)] } }, { originOptimizationId: optimizationId }] },
    select: { id: true, version: true, parentVersionId: true, originOptimizationId: true, originStepKey: true, note: true, createdAt: true },
    orderBy: { version: "asc" },
  });
}

/** An optimizer call without its text: what a step page lists. */
export interface OptimizerCallBrief {
  id: number;
  key: string;
  stage: string;
  minibatch: number | null;
  mergeLevel: number | null;
  itemIdsJson: string;
  /** The calls whose results it took in (the merge tree's edges), as JSON keys. */
  inputKeysJson: string;
  error: string | null;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  attempts: number;
}

export async function listOptimizerCallBriefs(db: Db, optimizationId: number, stepKey: string): Promise<OptimizerCallBrief[]> {
  return db.optimizerCall.findMany({
    where: { optimizationId, stepKey },
    select: { id: true, key: true, stage: true, minibatch: true, mergeLevel: true, itemIdsJson: true, inputKeysJson: true, error: true, promptTokens: true, completionTokens: true, latencyMs: true, attempts: true },
    orderBy: { id: "asc" },
  });
}

/** One call's text (system prompt, user message, raw reply, the JSON the loop read from it), loaded when a person opens it. */
export async function getOptimizerCallText(db: Db, optimizationId: number, callId: number): Promise<{ key: string; system: string; user: string; reply: string | null; parsedJson: string | null }> {
  const call = await db.optimizerCall.findFirst({ where: { id: callId, optimizationId }, select: { key: true, system: true, user: true, reply: true, parsedJson: true } });
  if (!call) throw new NotFoundError("optimizer call", callId);
  return call;
}

/** The stage keys of an optimisation in order, for moving between steps. */
export async function listStageKeys(db: Db, optimizationId: number): Promise<string[]> {
  const rows = await db.optimizationStep.findMany({ where: { optimizationId }, select: { key: true }, orderBy: { ordinal: "asc" } });
  return rows.map((row) => row.key);
}

/** A run's outcome per item, without its text: what a step page lists of its batch. */
export interface ItemOutcome {
  itemId: string;
  status: string;
  hard: number;
  question: string;
  predictedAnswer: string;
  failReason: string;
}

export async function listRunItemOutcomes(db: Db, runId: number): Promise<ItemOutcome[]> {
  const rows = await db.runResult.findMany({
    where: { runId },
    select: { itemId: true, status: true, hard: true, question: true, predictedAnswer: true, failReason: true },
    orderBy: { datasetItemId: "asc" },
  });
  // Only what a table cell shows: a long question or answer is cut here, not shipped whole to the page.
  const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);
  return rows.map((row) => ({ ...row, question: cut(row.question), predictedAnswer: cut(row.predictedAnswer), failReason: cut(row.failReason) }));
}

/** Items' questions by external id (cut as a table cell shows them): a batch of an imported optimisation, which has no runs. */
export async function listItemQuestions(db: Db, datasetId: number, externalIds: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.datasetItem.findMany({ where: { datasetId, externalId: { in: [...new Set(externalIds)].slice(0, 1_000) } }, select: { externalId: true, question: true } });
  return new Map(rows.map((row) => [row.externalId, row.question.length > 300 ? `${row.question.slice(0, 300)}…` : row.question]));
}
