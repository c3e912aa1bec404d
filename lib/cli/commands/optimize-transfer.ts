/** `optimize export ID --format skillopt --out DIR [--force]` and `optimize import DIR [--name NAME]`: SkillOpt's own output layout. */
import { parseArgs } from "node:util";
import type { Db } from "../../db";
import { ExportDirNotEmptyError, loadSkillOptExport, skillOptFiles, writeSkillOptDir } from "../../optimize/skillopt-export";
import { importSkillOptDir } from "../../optimize/skillopt-import";
import { SkillOptImportError } from "../../optimize/skillopt-read";
import { CliInputError, logLine, writeOut } from "../io";

export async function optimizeTransferCommand(db: () => Db, action: "export" | "import", args: string[]): Promise<number> {
  return action === "export" ? exportCommand(db(), args) : importCommand(db(), args);
}

async function exportCommand(db: Db, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { format: { type: "string" }, out: { type: "string" }, force: { type: "boolean" } } });
  const usage = "optimize export: expected ID --format skillopt --out DIR [--force]";
  if (positionals.length !== 1 || !/^\d+$/.test(positionals[0]!)) throw new CliInputError(usage);
  if (values.format !== "skillopt") throw new CliInputError(`optimize export: --format must be "skillopt"${values.format ? `, got "${values.format}"` : ""}`);
  if (!values.out) throw new CliInputError(usage);
  const files = skillOptFiles(await loadSkillOptExport(db, Number(positionals[0])));
  try {
    writeSkillOptDir(values.out, files, { force: values.force });
  } catch (error) {
    if (error instanceof ExportDirNotEmptyError) throw new CliInputError(`optimize export: ${error.message}`);
    throw error;
  }
  logLine(`optimization ${positionals[0]}: ${files.length} files written in SkillOpt's layout`);
  await writeOut(`${values.out}\n`);
  return 0;
}

async function importCommand(db: Db, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { name: { type: "string" } } });
  if (positionals.length !== 1) throw new CliInputError("optimize import: expected DIR [--name NAME]");
  try {
    const imported = await importSkillOptDir(db, positionals[0]!, { name: values.name });
    imported.notices.forEach(logLine);
    logLine(`imported ${positionals[0]} as optimization ${imported.id} (${imported.stages} stages, ${imported.versions} new versions of skill "${imported.skillName}")`);
    await writeOut(`${imported.id}\n`);
    return 0;
  } catch (error) {
    if (error instanceof SkillOptImportError) throw new CliInputError(`optimize import: ${error.message}`);
    throw error;
  }
}
