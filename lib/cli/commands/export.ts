import { parseArgs } from "node:util";
import { getRun, type Db } from "../../db";
import { EXPORT_FORMATS, exportRunResults, type ExportFormat } from "../../export/run-export";
import { CliInputError, logLine, parseIntegerOption, writeOut } from "../io";

/** `export RUN_ID --format csv|jsonl|seed` to stdout. */
export async function exportCommand(db: () => Db, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { format: { type: "string", default: "jsonl" } } });
  if (positionals.length !== 1) throw new CliInputError("export: expected RUN_ID");
  const runId = parseIntegerOption("run", positionals[0])!;
  if (!(EXPORT_FORMATS as readonly string[]).includes(values.format)) {
    throw new CliInputError(`export: --format must be one of ${EXPORT_FORMATS.join(", ")}, got "${values.format}"`);
  }
  const run = await getRun(db(), runId);
  if (values.format === "seed" && run.config.settings.trials > 1) {
    logLine(`export: run ${runId} has ${run.config.settings.trials} trials per item; the seed's results.jsonl has one row per item, so only trial 1 is written (use --format jsonl or csv for every trial)`);
  }
  for await (const chunk of exportRunResults(db(), runId, values.format as ExportFormat)) await writeOut(chunk);
  return 0;
}
