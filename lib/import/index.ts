import { type Db, getSkillVersion } from "../db";
import { buildSystemPrompt } from "../prompts";
import { planImport, storeImport } from "./import-run";
import { parseResultsStream, type ParsedResults } from "./parse-results";
import type { LineSource } from "./read-lines";

export { UNKNOWN_SKILL } from "./import-run";
export { parseResultsStream, type ImportedResult, type ParsedResults } from "./parse-results";

export interface ImportResultsInput {
  /** The file's name, for messages and the new dataset's name. */
  file: string;
  /** Run name; default: the file's name. */
  name?: string;
  datasetId?: number;
  /** The skill version the results came from; resolved only once the file has passed every check. */
  skillVersionId?: () => Promise<number>;
}

export interface ImportResultsOutcome {
  runId: number;
  datasetId: number;
  datasetCreated: boolean;
  items: number;
  duplicatesDropped: number;
  formats: ParsedResults["formats"];
}

/**
 * Imports a results file as a run: every line is parsed and checked first (DatasetValidationError with line and field,
 * nothing stored), then checked against the dataset, then stored. See lib/import/parse-results.ts for the formats.
 */
export async function importResults(db: Db, source: LineSource, input: ImportResultsInput): Promise<ImportResultsOutcome> {
  const parsed = await parseResultsStream(source, input.file);
  const name = input.name?.trim() || input.file.replace(/\.[^.]*$/, "");
  const plan = await planImport(db, parsed, { file: input.file, datasetId: input.datasetId, name });
  let skill: { id: number; systemPrompt: string } | undefined;
  if (input.skillVersionId) {
    const version = await getSkillVersion(db, await input.skillVersionId());
    skill = { id: version.id, systemPrompt: buildSystemPrompt(version.content) };
  }
  const { run, dataset, datasetCreated } = await storeImport(db, plan, { name, ...(skill ? { skill } : {}) });
  return { runId: run.id, datasetId: dataset.id, datasetCreated, items: plan.results.length, duplicatesDropped: parsed.duplicatesDropped, formats: parsed.formats };
}
