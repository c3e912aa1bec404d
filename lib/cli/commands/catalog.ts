import { parseArgs } from "node:util";
import { type Db, listDatasets, listSkillVersions, listSplitParts } from "../../db";
import { addSkillFile, importDatasetFile } from "../inputs";
import { CliInputError, logLine, writeOut } from "../io";
import { datasetExportCommand, datasetSplitCommand } from "./dataset-split";

/** `dataset import FILE [--name NAME]`, `dataset list`, `dataset split …` and `dataset export ID`. */
export async function datasetCommand(db: () => Db, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action === "list") {
    const parts = await listSplitParts(db());
    for (const d of await listDatasets(db())) {
      // A split part says which dataset it is a part of, and which part.
      const part = parts.get(d.id);
      const split = part ? { split_of: part.sourceDatasetId, split_part: part.part } : {};
      await writeOut(`${JSON.stringify({ id: d.id, name: d.name, item_count: d.itemCount, ...split })}\n`);
    }
    return 0;
  }
  if (action === "split") return datasetSplitCommand(db, rest);
  if (action === "export") return datasetExportCommand(db, rest);
  if (action !== "import") throw new CliInputError(`dataset: expected "import FILE [--name NAME]", "list", "split ID …" or "export ID", got "${action ?? ""}"`);
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { name: { type: "string" } } });
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new CliInputError("dataset import: expected exactly one FILE");
  const dataset = await importDatasetFile(db(), file, values.name);
  logLine(`imported ${file}: ${dataset.itemCount} items as dataset ${dataset.id} ("${dataset.name}")`);
  await writeOut(`${dataset.id}\n`);
  return 0;
}

/** `skill add FILE [--name NAME] [--note TEXT]` and `skill list`. */
export async function skillCommand(db: () => Db, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action === "list") {
    for (const v of await listSkillVersions(db())) {
      await writeOut(`${JSON.stringify({ id: v.id, skill: v.skillName, version: v.version, hash: v.hash })}\n`);
    }
    return 0;
  }
  if (action !== "add") throw new CliInputError(`skill: expected "add FILE [--name NAME]" or "list", got "${action ?? ""}"`);
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { name: { type: "string" }, note: { type: "string" } } });
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new CliInputError("skill add: expected exactly one FILE");
  const { version, created } = await addSkillFile(db(), file, values.name, values.note);
  logLine(
    created
      ? `stored ${file} as skill "${version.skillName}" version ${version.version}`
      : `unchanged: ${file} has the same text as skill "${version.skillName}" version ${version.version}; no new version`,
  );
  await writeOut(`${version.id}\n`);
  return 0;
}
