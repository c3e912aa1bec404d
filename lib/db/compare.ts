import { meanOverTrials } from "../compare/item-means";
import { pairScores } from "../compare/pair-scores";
import type { ItemScore, PairedScores } from "../compare/types";
import type { Db } from "./client";
import { NotFoundError } from "./errors";

/**
 * Every item of a run, reduced to what a comparison needs (one indexed query, no text columns); with repeated trials,
 * each item's mean over its trials.
 */
export async function getRunScores(db: Db, runId: number): Promise<ItemScore[]> {
  const rows = await db.runResult.findMany({
    where: { runId },
    select: { itemId: true, datasetItemId: true, em: true, f1: true, subEm: true, status: true, latencyMs: true, promptTokens: true, completionTokens: true },
  });
  return meanOverTrials(rows.map(({ promptTokens, completionTokens, ...row }) => ({ ...row, tokens: promptTokens + completionTokens })));
}

/** Two runs' results joined by item id: aligned arrays in dataset order, plus the ids only one side scored. */
export async function getPairedScores(db: Db, referenceRunId: number, otherRunId: number): Promise<PairedScores> {
  const [reference, other] = await Promise.all([getRunScores(db, referenceRunId), getRunScores(db, otherRunId)]);
  return pairScores(reference, other);
}

/** The metadata fields of a dataset's items (those that have any), by DatasetItem id. */
export async function getItemMetadata(db: Db, datasetId: number): Promise<Map<number, Record<string, unknown>>> {
  const rows = await db.datasetItem.findMany({ where: { datasetId, metadataJson: { not: null } }, select: { id: true, metadataJson: true } });
  const metadata = new Map<number, Record<string, unknown>>();
  for (const row of rows) {
    try {
      const parsed: unknown = JSON.parse(row.metadataJson ?? "null");
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) metadata.set(row.id, parsed as Record<string, unknown>);
    } catch {
      // Not JSON: no metadata for this item.
    }
  }
  return metadata;
}

const LATEST_FIRST = [{ finishedAt: "desc" as const }, { id: "desc" as const }];

/**
 * The run to compare a run against when nobody picked one: the latest completed run of the previous version of
 * the same skill on the same dataset (the nearest older version that has one); else the latest other completed
 * run on the dataset; else null.
 */
export async function resolveReferenceRun(db: Db, runId: number): Promise<number | null> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { datasetId: true, skillVersion: { select: { skillId: true, version: true } } } });
  if (!run) throw new NotFoundError("run", runId);
  const previous = await db.run.findFirst({
    where: { datasetId: run.datasetId, status: "completed", id: { not: runId }, skillVersion: { skillId: run.skillVersion.skillId, version: { lt: run.skillVersion.version } } },
    orderBy: [{ skillVersion: { version: "desc" } }, ...LATEST_FIRST],
    select: { id: true },
  });
  if (previous) return previous.id;
  const other = await db.run.findFirst({ where: { datasetId: run.datasetId, status: "completed", id: { not: runId } }, orderBy: LATEST_FIRST, select: { id: true } });
  return other?.id ?? null;
}

/** The latest completed run of each version of a skill on a dataset, oldest version first. */
export async function latestCompletedRunPerVersion(db: Db, skillId: number, datasetId: number): Promise<{ runId: number; version: number }[]> {
  const runs = await db.run.findMany({
    where: { datasetId, status: "completed", skillVersion: { skillId } },
    orderBy: LATEST_FIRST,
    select: { id: true, skillVersion: { select: { version: true } } },
  });
  const latest = new Map<number, number>();
  for (const run of runs) if (!latest.has(run.skillVersion.version)) latest.set(run.skillVersion.version, run.id);
  return [...latest].sort(([a], [b]) => a - b).map(([version, runId]) => ({ runId, version }));
}

/** Datasets on which at least two versions of a skill have a completed run: what "compare these versions" offers. */
export async function datasetsComparableForSkill(db: Db, skillId: number): Promise<{ id: number; name: string; versions: number }[]> {
  const runs = await db.run.findMany({
    where: { status: "completed", skillVersion: { skillId } },
    select: { datasetId: true, skillVersionId: true, dataset: { select: { name: true } } },
  });
  const datasets = new Map<number, { id: number; name: string; versionIds: Set<number> }>();
  for (const run of runs) {
    const entry = datasets.get(run.datasetId) ?? { id: run.datasetId, name: run.dataset.name, versionIds: new Set<number>() };
    entry.versionIds.add(run.skillVersionId);
    datasets.set(run.datasetId, entry);
  }
  return [...datasets.values()]
    .filter((entry) => entry.versionIds.size >= 2)
    .map((entry) => ({ id: entry.id, name: entry.name, versions: entry.versionIds.size }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

export interface ItemAnswer {
  question: string;
  predictedAnswer: string;
  em: number;
  f1: number;
  status: string;
}

/** Question and answer of a page of items in one run (the outcome lists, first trial), keyed by item id. */
export async function getItemAnswers(db: Db, runId: number, itemIds: readonly string[]): Promise<Map<string, ItemAnswer>> {
  const rows = await db.runResult.findMany({
    where: { runId, trial: 1, itemId: { in: [...itemIds] } },
    select: { itemId: true, question: true, predictedAnswer: true, em: true, f1: true, status: true },
  });
  return new Map(rows.map(({ itemId, ...answer }) => [itemId, answer]));
}
