// Planning a dataset's split (what `dataset split` stores): upstream's parts and order for ratio mode (golden values
// from record_core.py, the upstream loader end to end), the key that recognises the same split again, and manifest
// folders in SkillOpt's split_dir layout read from disk, with errors naming the file, line and field.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DatasetValidationError } from "@/lib/datasets/errors";
import { manifestIdsSha256, planDatasetSplit, SplitRequestError, type SplitPlan } from "@/lib/datasets/split-dataset";
import { readSplitManifest } from "@/lib/datasets/split-manifest";
import { SplitManifestError, SplitRatioError, type SplitIds } from "@/lib/optimize/splits";
import { goldenSection } from "../optimize/golden";

interface RatioGolden {
  ids: number;
  ratio: string;
  split_seed: number;
  seed: number;
  limit: number;
  split: SplitIds;
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `q${String(i).padStart(4, "0")}`);
// `dataset split` has no training seed or limit: upstream's defaults (train.seed 42, limit 0) are what it matches.
const cases = goldenSection<{ ratio_splits: RatioGolden[] }>("splits").ratio_splits.filter((c) => c.seed === 42 && c.limit === 0);
const ratioPlan = (n: number, ratio: string, seed: number) => planDatasetSplit(ids(n), { mode: "ratio", ratio, seed });

describe("ratio splits", () => {
  it("gives each part upstream's items in upstream's order, and refuses a split that leaves a part empty", () => {
    expect(cases.length).toBeGreaterThan(50);
    let planned = 0;
    for (const { ids: total, ratio, split_seed, split } of cases) {
      const emptyPart = (["train", "val", "test"] as const).find((name) => split[name].length === 0);
      if (emptyPart) {
        expect(() => ratioPlan(total, ratio, split_seed)).toThrow(new SplitRequestError(
          `ratio ${ratio.split(":").map((p) => p.trim()).join(":")}, seed ${split_seed || 42} leaves the ${emptyPart} part empty (${total} items); every part needs at least one item`,
        ));
        continue;
      }
      expect({ total, ratio, split_seed, ids: ratioPlan(total, ratio, split_seed).ids }).toEqual({ total, ratio, split_seed, ids: split });
      planned += 1;
    }
    expect(planned).toBeGreaterThan(30);
  });

  it("is recognised by the parsed ratio and the seed the shuffle used", () => {
    const plain: SplitPlan = ratioPlan(50, "2:1:7", 42);
    expect(plain.key).toEqual({ mode: "ratio", ratio: "2:1:7", seed: 42, manifestSha256: null });
    expect(plain.notices).toEqual([]);
    expect(ratioPlan(50, " 2 : 1 : 7 ", 42).key).toEqual(plain.key);
    // upstream quirk: split_seed 0 is falsy and becomes the training seed (42)
    const zero = ratioPlan(50, "2:1:7", 0);
    expect(zero.key).toEqual(plain.key);
    expect(zero.ids).toEqual(plain.ids);
    expect(zero.notices).toEqual(["split seed 0 means the training seed in SkillOpt: shuffling with seed 42"]);
    expect(ratioPlan(50, "2:1:7", 7).key.seed).toBe(7);
  });

  it("refuses a bad ratio with upstream's words and a seed it cannot store", () => {
    expect(() => ratioPlan(10, "2:1", 42)).toThrow(new SplitRatioError("split_ratio must be in train:val:test form, got '2:1'"));
    expect(() => ratioPlan(10, "2:0:7", 42)).toThrow(new SplitRatioError("split_ratio parts must be positive, got '2:0:7'"));
    for (const seed of [-1, 1.5, 2 ** 31]) {
      expect(() => ratioPlan(10, "2:1:7", seed)).toThrow(new SplitRequestError(`--seed must be an integer from 0 to 2147483647, got ${seed}`));
    }
  });
});

describe("manifest folders (split_dir layout)", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "skillboard-manifest-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (part: string, file: string, text: string) => {
    mkdirSync(join(dir, part), { recursive: true });
    writeFileSync(join(dir, part, file), text);
  };
  const writeManifest = (parts: Record<string, unknown>, indent?: number) => {
    for (const [part, json] of Object.entries(parts)) write(part, "items.json", JSON.stringify(json, null, indent));
  };
  const dataset = ["a", "b", "c", "d", "e", "7"];
  const plan = () => planDatasetSplit(dataset, { mode: "manifest", manifest: readSplitManifest(dir) });

  it("keeps each file's order, reads the file upstream reads, and is recognised by its ids whatever the formatting", () => {
    writeManifest({ train: [{ id: "d" }, { id: "a" }], val: [{ id: 7 }], test: [{ id: "e" }, { id: "b" }] });
    write("train", "zz-later.json", JSON.stringify([{ id: "c" }])); // sorted(glob("*.json"))[0] is items.json
    write("train", "notes.txt", "ignored");
    const first = plan();
    expect(first.ids).toEqual({ train: ["d", "a"], val: ["7"], test: ["e", "b"] });
    expect(first.key).toEqual({ mode: "manifest", ratio: null, seed: null, manifestSha256: manifestIdsSha256(first.ids) });

    writeManifest({ train: [{ id: "d", note: "x" }, { id: "a" }], val: [{ id: "7" }], test: [{ id: "e" }, { id: "b" }] }, 2);
    expect(plan().key).toEqual(first.key);
    writeManifest({ train: [{ id: "a" }, { id: "d" }], val: [{ id: 7 }], test: [{ id: "e" }, { id: "b" }] });
    expect(plan().key.manifestSha256).not.toBe(first.key.manifestSha256);
  });

  it("names the folder of a missing directory, part or file", () => {
    rmSync(dir, { recursive: true });
    expect(() => readSplitManifest(dir)).toThrow(new DatasetValidationError(dir, [{ message: "no such directory" }]));
    writeManifest({ train: [{ id: "a" }], test: [{ id: "b" }] });
    expect(() => readSplitManifest(dir)).toThrow(`${dir}: Missing 'val/' subdirectory in split_dir (expected train/, val/, test/)`);
    mkdirSync(join(dir, "val"));
    write("val", "items.jsonl", '{"id": "c"}\n');
    expect(() => readSplitManifest(dir)).toThrow(`${join(dir, "val")}: No .json file found`);
  });

  it("names the file and line of malformed JSON", () => {
    writeManifest({ train: [{ id: "a" }], test: [{ id: "b" }] });
    write("val", "items.json", '[\n  {"id": "c"},\n  {"id": "d",}\n]\n');
    let thrown: unknown;
    try {
      readSplitManifest(dir);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DatasetValidationError);
    expect((thrown as DatasetValidationError).file).toBe(join(dir, "val", "items.json"));
    expect((thrown as Error).message).toBe(`${join(dir, "val", "items.json")}: line 3: invalid JSON at column 13: trailing comma before "}"`);
  });

  it("names the file, item, line and field of an id the dataset does not have, in every file at once", () => {
    write("train", "items.json", '[\n  {"id": "a"},\n  {"id": "zz"}\n]');
    write("val", "items.json", '[{"id": "b"}]');
    write("test", "items.json", '[\n{"id": "c"},\n\n{"id": "a"}]');
    const train = join(dir, "train", "items.json");
    const test = join(dir, "test", "items.json");
    expect(plan).toThrow(SplitManifestError);
    expect(plan).toThrow(
      `${train}: item 2 (line 3): field "id": "zz" is not an item of the dataset\n` +
        `${test}: item 2 (line 4): field "id": "a" is already in ${train}`,
    );
  });
});
