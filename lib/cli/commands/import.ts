import { createReadStream, existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import type { Db } from "../../db";
import { importResults } from "../../import";
import { resolveSkillVersion } from "../inputs";
import { CliInputError, logLine, parseIntegerOption, writeOut } from "../io";

/**
 * `import FILE [--dataset ID] [--skill FILE|ID] [--name NAME]`: a results file (the seed's results.jsonl or
 * Skillboard's JSONL export) becomes a completed, imported run; prints its id. Any bad line: exit 2, nothing stored.
 */
export async function importCommand(db: () => Db, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true,
    options: { dataset: { type: "string" }, skill: { type: "string" }, name: { type: "string" } },
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new CliInputError("import: expected exactly one FILE");
  if (!existsSync(file) || !statSync(file).isFile()) throw new CliInputError(`${file}: no such file`);
  const datasetId = parseIntegerOption("dataset", values.dataset);
  const skill = values.skill;
  const outcome = await importResults(db(), createReadStream(file), {
    file: basename(file),
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(datasetId !== undefined ? { datasetId } : {}),
    ...(skill !== undefined ? { skillVersionId: async () => (await resolveSkillVersion(db(), skill)).id } : {}),
  });
  if (outcome.duplicatesDropped > 0) logLine(`${outcome.duplicatesDropped} earlier row(s) of a repeated id replaced by the later one, as the seed's resume reads them`);
  logLine(
    `imported ${file}: ${outcome.items} items as run ${outcome.runId} on ` +
      `${outcome.datasetCreated ? "new " : ""}dataset ${outcome.datasetId}`,
  );
  await writeOut(`${outcome.runId}\n`);
  return 0;
}
