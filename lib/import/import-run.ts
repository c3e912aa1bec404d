import { hashDatasetItems, shareEventLoop } from "../datasets";
import { IssueList } from "../datasets/errors";
import type { DatasetItem } from "../datasets/types";
import {
  addSkillVersion, deleteDataset, findDatasetByHash, getDataset, getDatasetItemRowIds, importDataset, storeImportedRun,
  type DatasetRecord, type Db, type RunRecord,
} from "../db";
import type { ItemResult } from "../runs/types";
import type { ParsedResults } from "./parse-results";

/**
 * The skill recorded for an imported run when none is given. A results file does not say which skill produced it,
 * so this says exactly that rather than pretending; its system prompt is stored empty.
 */
export const UNKNOWN_SKILL = {
  name: "imported",
  content: "(Unknown skill: this version stands for runs imported from a results file that does not record the skill used.)\n",
};

export interface ImportPlan {
  /** Results with the dataset rows they point to. */
  results: ItemResult[];
  /** An existing dataset (given, or the same items imported before), or the items of a new one. */
  dataset: { existing: DatasetRecord } | { create: { name: string; fileName: string; items: DatasetItem[]; hash: string } };
}

/**
 * Checks the parsed rows against the dataset (every id must be one of its items; unknown ids are reported by line) or,
 * without one, builds the dataset from the rows (id, question, gold answers, empty context). Stores nothing.
 */
export async function planImport(db: Db, parsed: ParsedResults, input: { file: string; datasetId?: number; name: string }): Promise<ImportPlan> {
  const issues = new IssueList();
  if (input.datasetId !== undefined) {
    const dataset = await getDataset(db, input.datasetId);
    const rowIds = await getDatasetItemRowIds(db, dataset.id);
    const results: ItemResult[] = [];
    for (const { line, ...result } of parsed.results) {
      const datasetItemId = rowIds.get(result.itemId);
      if (datasetItemId === undefined) issues.add({ line, field: "id", message: `"${result.itemId}" is not an item of dataset ${dataset.id} ("${dataset.name}")` });
      else results.push({ ...result, datasetItemId });
      await shareEventLoop();
    }
    if (issues.count > 0) throw issues.toError(input.file);
    return { results, dataset: { existing: dataset } };
  }
  const items: DatasetItem[] = [];
  for (const result of parsed.results) {
    if (result.goldAnswers.length === 0) issues.add({ line: result.line, field: "gold_answers", message: "must not be empty to make a dataset item (or import with a dataset)" });
    items.push({ id: result.itemId, question: result.question, answers: result.goldAnswers, context: "" });
    await shareEventLoop();
  }
  if (issues.count > 0) throw issues.toError(input.file);
  const hash = await hashDatasetItems(items);
  const existing = await findDatasetByHash(db, hash);
  // Placeholder ids (0-based positions): replaced by the stored rows' ids once the dataset exists.
  const results: ItemResult[] = [];
  for (const { line, ...result } of parsed.results) {
    results.push({ ...result, datasetItemId: results.length });
    await shareEventLoop();
  }
  if (existing) return { results: await withStoredItemIds(db, existing.id, results), dataset: { existing } };
  return { results, dataset: { create: { name: `${input.name} (imported)`, fileName: input.file, items, hash } } };
}

/**
 * Stores a planned import: the dataset (when new), the skill version (given, or the "unknown skill" one) and the run
 * with all its results. A dataset made here is removed again if the run cannot be stored.
 */
export async function storeImport(
  db: Db,
  plan: ImportPlan,
  input: { name: string; skill?: { id: number; systemPrompt: string } },
): Promise<{ run: RunRecord; dataset: DatasetRecord; datasetCreated: boolean }> {
  const skill = input.skill ?? { id: (await addSkillVersion(db, UNKNOWN_SKILL)).version.id, systemPrompt: "" };
  const created = "create" in plan.dataset ? await importDataset(db, { ...plan.dataset.create, format: "jsonl" }) : null;
  const dataset = created ?? ("existing" in plan.dataset ? plan.dataset.existing : null)!;
  try {
    const results = created ? await withStoredItemIds(db, created.id, plan.results) : plan.results;
    const run = await storeImportedRun(db, { name: input.name, datasetId: dataset.id, skillVersionId: skill.id, systemPrompt: skill.systemPrompt, results });
    return { run, dataset, datasetCreated: created !== null };
  } catch (error) {
    if (created) await deleteDataset(db, created.id).catch(() => {});
    throw error;
  }
}

/**
 * The results pointing at the stored rows. Like planImport's, this loop shares the event loop: at 20,000 rows a plain
 * map held the thread for 50–180 ms (import-limits.test.ts measures the longest stall).
 */
async function withStoredItemIds(db: Db, datasetId: number, results: ItemResult[]): Promise<ItemResult[]> {
  const rowIds = await getDatasetItemRowIds(db, datasetId);
  const stored: ItemResult[] = [];
  for (const result of results) {
    stored.push({ ...result, datasetItemId: rowIds.get(result.itemId) ?? 0 });
    await shareEventLoop();
  }
  return stored;
}
