/**
 * Splits against upstream's own functions (record_core.py "splits"): `_parse_split_ratio` (values and error
 * messages), `_compute_split_counts`, the ratio split through SearchQADataLoader.setup end to end (shuffle,
 * cut, split_seed 0 → training seed, limit), and split_dir mode's file choice and order. Then Skillboard's
 * manifest checks, which upstream does not have.
 */
import { describe, expect, it } from "vitest";
import { DatasetValidationError } from "@/lib/datasets/errors";
import {
  computeSplitCounts,
  effectiveSplitSeed,
  manifestSplit,
  parseSplitRatio,
  pickSplitFile,
  ratioSplit,
  SplitManifestError,
  SplitRatioError,
  type SplitIds,
  type SplitName,
} from "@/lib/optimize/splits";
import { goldenSection } from "./golden";

interface SplitsGolden {
  counts: { ratio: string; total: number; counts: number[] }[];
  parse: { text: string; value?: number[]; error?: string }[];
  ratio_splits: { ids: number; ratio: string; split_seed: number; seed: number; limit: number; split: SplitIds }[];
  manifest: { parts: Record<SplitName, Record<string, { id: string }[]>>; limit: number; split: SplitIds }[];
}

const golden = goldenSection<SplitsGolden>("splits");
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, "0")}`);

function parseOutcome(text: string): { value?: number[]; error?: string } {
  try {
    return { value: parseSplitRatio(text) };
  } catch (error) {
    if (!(error instanceof SplitRatioError)) throw error;
    return { error: `ValueError: ${error.message}` };
  }
}

describe("ratio splits match upstream", () => {
  it("parses ratios and words its errors as _parse_split_ratio does", () => {
    expect(golden.parse.map(({ text }) => ({ text, ...parseOutcome(text) }))).toEqual(golden.parse);
  });

  it("computes largest-remainder counts as _compute_split_counts does", () => {
    expect(golden.counts.length).toBeGreaterThan(500);
    const actual = golden.counts.map(({ ratio, total }) => ({
      ratio,
      total,
      counts: computeSplitCounts(total, parseSplitRatio(ratio)),
    }));
    expect(actual).toEqual(golden.counts);
  });

  it("puts the same items, in the same order, in each part as the upstream loader", () => {
    expect(golden.ratio_splits.length).toBeGreaterThan(100);
    for (const { ids: total, ratio, split_seed, seed, limit, split } of golden.ratio_splits) {
      const actual = ratioSplit(ids("q", total), ratio, effectiveSplitSeed(split_seed, seed), limit);
      expect({ total, ratio, split_seed, seed, limit, split: actual }).toEqual({ total, ratio, split_seed, seed, limit, split });
    }
  });

  it("refuses an empty dataset", () => {
    expect(() => ratioSplit([], "2:1:7", 42)).toThrow("No raw items available for ratio split");
  });
});

describe("manifest (split_dir) splits", () => {
  it("reads the file upstream reads and keeps its order and limit", () => {
    const dataset = Array.from({ length: 30 }, (_, i) => `m${String(i).padStart(3, "0")}`);
    for (const { parts, limit, split } of golden.manifest) {
      const chosen = Object.fromEntries(
        (["train", "val", "test"] as const).map((name) => {
          const file = pickSplitFile(Object.keys(parts[name]))!;
          return [name, { file: `${name}/${file}`, json: parts[name][file] }];
        }),
      ) as Record<SplitName, { file: string; json: unknown }>;
      expect(manifestSplit(chosen, dataset, limit)).toEqual(split);
    }
  });

  it("picks sorted(glob('*.json'))[0]: no dot-files, code-point order", () => {
    expect(pickSplitFile(["items.jsonl", ".a.json", "b.json", "B.json", "items.json"])).toBe("B.json");
    expect(pickSplitFile(["\u{1F600}.json", "\uFFFF.json"])).toBe("\uFFFF.json");
    expect(pickSplitFile(["notes.txt"])).toBeUndefined();
  });

  const dataset = ["a", "b", "c", "d", "7"];
  const part = (file: string, json: unknown) => ({ file, json });

  it("names the file, item and field of an unknown id, a repeated id and a malformed item", () => {
    const parts = {
      train: part("train/items.json", [{ id: "a" }, { id: 7 }]),
      val: part("val/items.json", [{ id: "b" }]),
      test: part("test/items.json", [{ id: "c" }]),
    };
    expect(manifestSplit(parts, dataset)).toEqual({ train: ["a", "7"], val: ["b"], test: ["c"] });

    const broken = { ...parts, train: part("train/items.json", [{ id: "a" }, { id: "zz" }, { id: "a" }, "a", { id: null }]) };
    let thrown: unknown;
    try {
      manifestSplit(broken, dataset);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DatasetValidationError);
    expect((thrown as Error).message.split("\n")).toEqual([
      'train/items.json: item 2: field "id": "zz" is not an item of the dataset',
      'train/items.json: item 3: field "id": "a" is already in train/items.json',
      'train/items.json: item 4: field "id": must be a string or an integer id of a dataset item',
      'train/items.json: item 5: field "id": must be a string or an integer id of a dataset item',
    ]);
  });

  it("reports an id in two parts and a file that is not an array, every file at once", () => {
    const parts = {
      train: part("train/items.json", [{ id: "a" }]),
      val: part("val/items.json", { id: "b" }),
      test: part("test/items.json", [{ id: "a" }]),
    };
    expect(() => manifestSplit(parts, dataset)).toThrow(SplitManifestError);
    expect(() => manifestSplit(parts, dataset)).toThrow(
      'val/items.json: Expected JSON array, got dict\ntest/items.json: item 1: field "id": "a" is already in train/items.json',
    );
  });
});
