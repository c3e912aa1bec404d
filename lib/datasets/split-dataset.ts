/**
 * Which items of a dataset go to train, val and test, as SkillOpt decides it (skillopt/datasets/base.py), and what
 * identifies that decision so that asking again finds the split already stored. Pure: the item ids come in dataset
 * order, the manifest already read (lib/datasets/split-manifest.ts); storing is lib/db/dataset-splits.ts.
 */
import { createHash } from "node:crypto";
import { effectiveSplitSeed, parseSplitRatio, ratioSplit, SPLIT_NAMES, type SplitIds } from "../optimize/splits";
import { splitByManifest, type SplitManifest } from "./split-manifest";

/** `env.split_seed` and `train.seed` of configs/_base_/default.yaml. */
export const DEFAULT_SPLIT_SEED = 42;
export const DEFAULT_TRAIN_SEED = 42;

/** Seeds are stored as SQLite integers read by Prisma as 32-bit ints. */
const MAX_SEED = 2 ** 31 - 1;

export type SplitRequest =
  | { mode: "ratio"; ratio: string; seed: number }
  | { mode: "manifest"; manifest: SplitManifest };

/** What a stored split is recognised by: the same source with the same key is the same split. */
export interface SplitKey {
  mode: "ratio" | "manifest";
  /** "2:1:7" as parsed (so " 2 : 1 : 7" is the same split) */
  ratio: string | null;
  /** the seed the shuffle used */
  seed: number | null;
  manifestSha256: string | null;
}

export interface SplitPlan {
  key: SplitKey;
  /** External item ids of each part, in the order upstream leaves them. */
  ids: SplitIds;
  /** Things the user should know (stderr), e.g. that seed 0 was replaced. */
  notices: string[];
}

/** A split that cannot be made (a bad seed, an empty part); nothing is stored. */
export class SplitRequestError extends Error {
  override name = "SplitRequestError";
}

/** Plans the split of a dataset whose items have these ids (in dataset order). */
export function planDatasetSplit(itemIds: readonly string[], request: SplitRequest): SplitPlan {
  const plan = request.mode === "ratio" ? planRatioSplit(itemIds, request.ratio, request.seed) : planManifestSplit(itemIds, request.manifest);
  for (const name of SPLIT_NAMES) {
    if (plan.ids[name].length === 0) {
      // Upstream goes on with an empty part (and an empty val makes every gate decision a tie); a dataset of no
      // items is refused everywhere else in Skillboard, so each part must have one.
      throw new SplitRequestError(`${describeKey(plan.key)} leaves the ${name} part empty (${itemIds.length} items); every part needs at least one item`);
    }
  }
  return plan;
}

function planRatioSplit(itemIds: readonly string[], ratioText: string, seed: number): SplitPlan {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new SplitRequestError(`--seed must be an integer from 0 to ${MAX_SEED}, got ${seed}`);
  }
  const ratio = parseSplitRatio(ratioText).join(":");
  // SplitDataLoader.setup: a split seed of 0 is falsy, so upstream shuffles with the training seed instead.
  const used = effectiveSplitSeed(seed, DEFAULT_TRAIN_SEED);
  const notices = used !== seed ? [`split seed ${seed} means the training seed in SkillOpt: shuffling with seed ${used}`] : [];
  return { key: { mode: "ratio", ratio, seed: used, manifestSha256: null }, ids: ratioSplit(itemIds, ratio, used), notices };
}

function planManifestSplit(itemIds: readonly string[], manifest: SplitManifest): SplitPlan {
  const ids = splitByManifest(manifest, itemIds);
  return { key: { mode: "manifest", ratio: null, seed: null, manifestSha256: manifestIdsSha256(ids) }, ids, notices: [] };
}

/**
 * sha256 of the manifest's content: each part's ids in order, as JSON `{"train":[…],"val":[…],"test":[…]}`. The same
 * ids give the same split whatever the files' formatting, file names or extra fields.
 */
export function manifestIdsSha256(ids: SplitIds): string {
  const canonical = JSON.stringify({ train: ids.train, val: ids.val, test: ids.test });
  return createHash("sha256").update(canonical, "utf8").digest("hex");
}

/** "ratio 2:1:7, seed 42" or "manifest 1a2b3c4d5e", for messages and pages. */
export function describeKey(key: SplitKey): string {
  return key.mode === "ratio" ? `ratio ${key.ratio}, seed ${key.seed}` : `manifest ${key.manifestSha256?.slice(0, 10)}`;
}
