import type { RunWithNames } from "@/lib/db";
import { runMeans } from "@/lib/runs/metrics";

/** One cell of the comparison: the latest completed run of a skill version on a dataset. */
export interface ComparisonRow {
  run: RunWithNames;
  em: number | null;
  f1: number | null;
  subEm: number | null;
  /** How many completed runs of this version on this dataset there are (the table shows only the latest). */
  completedRuns: number;
}

export interface DatasetComparison {
  datasetId: number;
  datasetName: string;
  rows: ComparisonRow[];
}

/**
 * For each dataset, the latest completed run of each skill version, best EM first. Only completed runs:
 * a cancelled or failed run scored a different set of items and would not compare fairly.
 */
export function latestCompletedBySkillVersion(runs: readonly RunWithNames[]): DatasetComparison[] {
  const latest = new Map<string, ComparisonRow>();
  for (const run of runs) {
    if (run.status !== "completed") continue;
    const key = `${run.datasetId}:${run.skillVersionId}`;
    const current = latest.get(key);
    const { em, f1, subEm } = runMeans(run);
    const row: ComparisonRow = { run, em, f1, subEm, completedRuns: (current?.completedRuns ?? 0) + 1 };
    if (!current || isLater(run, current.run)) latest.set(key, row);
    else current.completedRuns = row.completedRuns;
  }
  const byDataset = new Map<number, DatasetComparison>();
  for (const row of latest.values()) {
    const group = byDataset.get(row.run.datasetId) ?? { datasetId: row.run.datasetId, datasetName: row.run.datasetName, rows: [] };
    group.rows.push(row);
    byDataset.set(row.run.datasetId, group);
  }
  const groups = [...byDataset.values()].sort((a, b) => a.datasetName.localeCompare(b.datasetName) || a.datasetId - b.datasetId);
  for (const group of groups) group.rows.sort((a, b) => (b.em ?? -1) - (a.em ?? -1) || b.run.id - a.run.id);
  return groups;
}

function isLater(a: RunWithNames, b: RunWithNames): boolean {
  const time = (run: RunWithNames) => (run.finishedAt ?? run.createdAt).getTime();
  return time(a) !== time(b) ? time(a) > time(b) : a.id > b.id;
}
