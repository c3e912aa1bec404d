/**
 * Train / val / test splits as upstream SkillOpt makes them (skillopt/datasets/base.py: `_parse_split_ratio`,
 * `_compute_split_counts`, `SplitDataLoader._materialize_ratio_split`, `load_split_items`, `_load_all_splits`).
 * Pure: items are identified by their ids, in dataset order; reading files and storing the split is the caller's.
 *
 * The order inside each part matters beyond the split itself: the loop's later shuffles (epoch batches) start
 * from the train part's order, so it must be exactly upstream's.
 */
import { DatasetValidationError, IssueList } from "@/lib/datasets/errors";
import { pyStrRepr, pyStrip } from "@/lib/text/python";
import { pyShuffled } from "./py-random";
import { pyTypeName } from "./py-values";

export type SplitName = "train" | "val" | "test";
export const SPLIT_NAMES: readonly SplitName[] = ["train", "val", "test"];

export interface SplitIds {
  train: string[];
  val: string[];
  test: string[];
}

/** A bad `split_ratio` setting; the message names the setting and the value as upstream's ValueError does. */
export class SplitRatioError extends Error {
  readonly field = "split_ratio";
  constructor(message: string) {
    super(message);
    this.name = "SplitRatioError";
  }
}

/** Python `int(text)` for the ASCII forms (sign, digits, single underscores between digits). */
const PY_INT = /^[+-]?[0-9]+(?:_[0-9]+)*$/;

/**
 * `_parse_split_ratio`: "train:val:test", three positive integers. Upstream quirk copied: empty parts are
 * dropped before counting, so "2::1:7" is accepted as 2:1:7. (Python's `int()` would also take non-ASCII
 * digits such as "２"; those are refused here.)
 */
export function parseSplitRatio(text: string): [number, number, number] {
  const shown = pyStrRepr(text); // upstream quotes the value with {text!r}
  const parts = text
    .split(":")
    .map((part) => pyStrip(part))
    .filter((part) => part !== "");
  if (parts.length !== 3) throw new SplitRatioError(`split_ratio must be in train:val:test form, got ${shown}`);
  if (!parts.every((part) => PY_INT.test(part))) {
    throw new SplitRatioError(`split_ratio must contain integers, got ${shown}`);
  }
  const [train, val, test] = parts.map((part) => Number(part.replaceAll("_", ""))) as [number, number, number];
  if (Math.min(train, val, test) <= 0) throw new SplitRatioError(`split_ratio parts must be positive, got ${shown}`);
  return [train, val, test];
}

/**
 * `_compute_split_counts`: largest remainder. Each part gets trunc(total·w/Σw); the leftover items go to the
 * parts with the largest fractional remainder, ties broken by the larger weight, then by position (Python's
 * `sorted(..., reverse=True)` keeps equal keys in their original order, as JS's stable sort does here).
 */
export function computeSplitCounts(total: number, ratio: readonly [number, number, number]): [number, number, number] {
  const denominator = ratio[0] + ratio[1] + ratio[2];
  const raw = ratio.map((weight) => (total * weight) / denominator);
  const counts = raw.map((value) => Math.trunc(value));
  const remaining = total - counts.reduce((sum, count) => sum + count, 0);
  const order = [0, 1, 2].sort((a, b) => {
    const byFraction = raw[b]! - counts[b]! - (raw[a]! - counts[a]!);
    return byFraction !== 0 ? byFraction : ratio[b]! - ratio[a]!;
  });
  for (const index of order.slice(0, remaining)) counts[index]! += 1;
  return [counts[0]!, counts[1]!, counts[2]!];
}

/**
 * The split seed upstream actually uses (`SplitDataLoader.setup`): a split seed of 0 is falsy in Python and is
 * replaced by the training seed. Quirk copied: `split_seed: 0` never means seed 0.
 */
export function effectiveSplitSeed(splitSeed: number, trainSeed: number): number {
  return splitSeed ? splitSeed : trainSeed;
}

/**
 * Ratio mode (`_materialize_ratio_split`): shuffle a copy of the items with `random.Random(split_seed)`, then cut
 * train, val, test in that order. `limit` (env `limit`, 0 = none) keeps the first items of each part, as
 * `_load_all_splits` does after the split is written.
 */
export function ratioSplit(itemIds: readonly string[], ratioText: string, splitSeed: number, limit = 0): SplitIds {
  const ratio = parseSplitRatio(ratioText);
  if (itemIds.length === 0) throw new SplitRatioError("No raw items available for ratio split: the dataset is empty");
  const shuffled = pyShuffled(itemIds, splitSeed);
  const [trainCount, valCount] = computeSplitCounts(shuffled.length, ratio);
  return applyLimit(
    {
      train: shuffled.slice(0, trainCount),
      val: shuffled.slice(trainCount, trainCount + valCount),
      test: shuffled.slice(trainCount + valCount),
    },
    limit,
  );
}

function applyLimit(split: SplitIds, limit: number): SplitIds {
  if (!limit) return split;
  return { train: split.train.slice(0, limit), val: split.val.slice(0, limit), test: split.test.slice(0, limit) };
}

/**
 * The file upstream's `load_split_items` reads in a split directory: `sorted(glob("*.json"))[0]`. glob skips
 * dot-files; Python sorts by code point. Undefined when there is none (upstream: FileNotFoundError).
 */
export function pickSplitFile(fileNames: readonly string[]): string | undefined {
  const candidates = fileNames.filter((name) => name.endsWith(".json") && !name.startsWith("."));
  return candidates.sort(compareCodePoints)[0];
}

function compareCodePoints(a: string, b: string): number {
  const left = Array.from(a, (ch) => ch.codePointAt(0)!);
  const right = Array.from(b, (ch) => ch.codePointAt(0)!);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i]! - right[i]!;
  }
  return left.length - right.length;
}

/** One split's parsed items file, e.g. `{ file: "val/items.json", json: [{ id: "…" }, …] }`. */
export interface ManifestPart {
  file: string;
  json: unknown;
}

/**
 * `split_dir` mode: each part's file must hold a JSON array (as upstream requires) of items with an `id`
 * (SearchQA's published manifest: `[{"id": "…"}, …]`); the part keeps the file's order. Skillboard adds the
 * checks upstream leaves to luck, all reported at once: every id must be a dataset item (a string or an
 * integer), and no id may appear twice in one part or in two parts.
 */
export function manifestSplit(
  parts: Readonly<Record<SplitName, ManifestPart>>,
  datasetIds: readonly string[],
  limit = 0,
): SplitIds {
  const known = new Set(datasetIds);
  const seenIn = new Map<string, string>();
  const result: SplitIds = { train: [], val: [], test: [] };
  const failures: DatasetValidationError[] = [];
  for (const name of SPLIT_NAMES) {
    const { file, json } = parts[name];
    const issues = new IssueList();
    if (!Array.isArray(json)) {
      failures.push(new DatasetValidationError(file, [{ message: `Expected JSON array, got ${pyTypeName(json)}` }]));
      continue;
    }
    json.forEach((entry: unknown, index) => {
      const item = index + 1;
      const raw = entry !== null && typeof entry === "object" && !Array.isArray(entry) ? (entry as Record<string, unknown>).id : undefined;
      if (typeof raw !== "string" && !Number.isInteger(raw)) {
        issues.add({ item, field: "id", message: "must be a string or an integer id of a dataset item" });
        return;
      }
      const id = String(raw);
      const earlier = seenIn.get(id);
      if (earlier !== undefined) {
        issues.add({ item, field: "id", message: `${JSON.stringify(id)} is already in ${earlier}` });
      } else if (!known.has(id)) {
        issues.add({ item, field: "id", message: `${JSON.stringify(id)} is not an item of the dataset` });
      } else {
        seenIn.set(id, file);
        result[name].push(id);
      }
    });
    if (issues.count > 0) failures.push(issues.toError(file));
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new SplitManifestError(failures);
  return applyLimit(result, limit);
}

/** Several manifest files are wrong: one message with every file's issues. */
export class SplitManifestError extends Error {
  constructor(readonly failures: readonly DatasetValidationError[]) {
    super(failures.map((failure) => failure.message).join("\n"));
    this.name = "SplitManifestError";
  }
}
