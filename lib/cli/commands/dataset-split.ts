import { parseArgs } from "node:util";
import { DEFAULT_SPLIT_SEED, describeKey, SplitRequestError, type SplitRequest } from "../../datasets/split-dataset";
import { readSplitManifest } from "../../datasets/split-manifest";
import { type Db, getDataset, splitDataset } from "../../db";
import { exportDatasetItems } from "../../export/dataset-export";
import { SplitManifestError, SplitRatioError } from "../../optimize/splits";
import { CliInputError, logLine, writeOut } from "../io";

const SPLIT_USAGE = "dataset split ID --ratio TRAIN:VAL:TEST [--seed N] | dataset split ID --manifest DIR";

/**
 * `dataset split ID --ratio 2:1:7 [--seed 42]` or `dataset split ID --manifest DIR`: stores the split (or finds the
 * same one stored before) and prints one JSON line, `{"train":ID,"val":ID,"test":ID}`; everything else goes to stderr.
 */
export async function datasetSplitCommand(db: () => Db, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ratio: { type: "string" }, seed: { type: "string" }, manifest: { type: "string" } },
  });
  const sourceId = datasetIdArgument("dataset split", positionals);
  const request = splitRequest(values);
  let result;
  try {
    result = await splitDataset(db(), sourceId, request);
  } catch (error) {
    // Bad settings or a bad manifest: a usage error (exit 2), nothing was stored.
    if (error instanceof SplitRatioError || error instanceof SplitRequestError || error instanceof SplitManifestError) {
      throw new CliInputError(`dataset split: ${error.message}`);
    }
    throw error;
  }
  const { split, created, notices } = result;
  for (const notice of notices) logLine(notice);
  const counts = `train ${split.parts.train.itemCount} · val ${split.parts.val.itemCount} · test ${split.parts.test.itemCount} items`;
  logLine(
    created
      ? `split dataset ${sourceId} ("${split.sourceName}") by ${describeKey(split)}: ${counts}`
      : `unchanged: dataset ${sourceId} was split by ${describeKey(split)} before (${counts}); using those parts`,
  );
  await writeOut(`${JSON.stringify({ train: split.parts.train.datasetId, val: split.parts.val.datasetId, test: split.parts.test.datasetId })}\n`);
  return 0;
}

function splitRequest(values: { ratio?: string; seed?: string; manifest?: string }): SplitRequest {
  if ((values.ratio === undefined) === (values.manifest === undefined)) {
    throw new CliInputError(`dataset split: give either --ratio or --manifest (${SPLIT_USAGE})`);
  }
  if (values.manifest !== undefined) {
    if (values.seed !== undefined) throw new CliInputError("dataset split: --seed applies to --ratio only (a manifest says where each item goes)");
    return { mode: "manifest", manifest: readSplitManifest(values.manifest) };
  }
  if (values.seed !== undefined && !/^\d+$/.test(values.seed)) {
    throw new CliInputError(`dataset split: --seed must be a non-negative integer, got "${values.seed}"`);
  }
  return { mode: "ratio", ratio: values.ratio!, seed: values.seed === undefined ? DEFAULT_SPLIT_SEED : Number(values.seed) };
}

/** `dataset export ID`: the dataset's items as JSONL on stdout, in order, as `dataset import` reads them back. */
export async function datasetExportCommand(db: () => Db, args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const dataset = await getDataset(db(), datasetIdArgument("dataset export", positionals));
  for await (const chunk of exportDatasetItems(db(), dataset.id)) await writeOut(chunk);
  logLine(`exported dataset ${dataset.id} ("${dataset.name}"): ${dataset.itemCount} items`);
  return 0;
}

function datasetIdArgument(command: string, positionals: string[]): number {
  const [value] = positionals;
  if (value === undefined || positionals.length > 1) throw new CliInputError(`${command}: expected exactly one dataset ID`);
  if (!/^\d+$/.test(value)) throw new CliInputError(`${command}: "${value}" is not a dataset id`);
  return Number(value);
}
