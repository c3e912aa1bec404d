// `dataset split` and `dataset export`, run as separate processes the way scripts call them: one JSON line of part
// ids on stdout, the parts holding what upstream SkillOpt makes of the same file (golden: record_dataset_splits.py
// runs the upstream loader on searchqa-mini.jsonl), exit code 2 and nothing stored on bad input.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SplitIds } from "@/lib/optimize/splits";
import { MINI_DATASET, runCli } from "../support/cli";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDb();
});
afterEach(async () => {
  await t.close();
});

const cli = (args: string[]) => runCli(args, { databaseUrl: t.url });
const jsonLines = (text: string) => text.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
const golden = JSON.parse(readFileSync("tests/fixtures/golden/dataset-splits.json", "utf8")) as {
  ratio_splits: { ratio: string; split_seed: number; split: SplitIds }[];
};
const upstream = (ratio: string, seed: number) => golden.ratio_splits.find((c) => c.ratio === ratio && c.split_seed === seed)!.split;

async function importMini(): Promise<string> {
  const imported = await cli(["dataset", "import", MINI_DATASET]);
  expect(imported.code).toBe(0);
  return imported.stdout.trim();
}

/** The part ids printed by a successful split: exactly one line of JSON with three numbers. */
function partIds(result: { code: number | null; stdout: string; stderr: string }): { train: number; val: number; test: number } {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/^[^\n]+\n$/);
  const ids = JSON.parse(result.stdout) as Record<string, unknown>;
  expect(Object.keys(ids)).toEqual(["train", "val", "test"]);
  expect(Object.values(ids).every((id) => Number.isInteger(id))).toBe(true);
  return ids as { train: number; val: number; test: number };
}

async function exportedIds(datasetId: number): Promise<string[]> {
  const exported = await cli(["dataset", "export", String(datasetId)]);
  expect(exported.code).toBe(0);
  return jsonLines(exported.stdout).map((item) => item.id as string);
}

describe("dataset split --ratio", () => {
  it("stores upstream's parts of the file in upstream's order, and finds them again instead of copying", async () => {
    const source = await importMini();
    const first = await cli(["dataset", "split", source, "--ratio", "2:1:7"]);
    const ids = partIds(first);
    expect(first.stderr).toContain(`split dataset ${source} ("searchqa-mini") by ratio 2:1:7, seed 42: train 2 · val 1 · test 9 items`);
    const expected = upstream("2:1:7", 42);
    for (const name of ["train", "val", "test"] as const) expect(await exportedIds(ids[name])).toEqual(expected[name]);

    const again = await cli(["dataset", "split", source, "--ratio", "2:1:7", "--seed", "42"]);
    expect(partIds(again)).toEqual(ids);
    expect(again.stderr).toContain("unchanged:");
    const zero = await cli(["dataset", "split", source, "--ratio", "2:1:7", "--seed", "0"]);
    expect(partIds(zero)).toEqual(ids);
    expect(zero.stderr).toContain("split seed 0 means the training seed in SkillOpt: shuffling with seed 42");

    const listed = jsonLines((await cli(["dataset", "list"])).stdout);
    expect(listed).toEqual([
      { id: Number(source), name: "searchqa-mini", item_count: 12 },
      { id: ids.train, name: "searchqa-mini · train", item_count: 2, split_of: Number(source), split_part: "train" },
      { id: ids.val, name: "searchqa-mini · val", item_count: 1, split_of: Number(source), split_part: "val" },
      { id: ids.test, name: "searchqa-mini · test", item_count: 9, split_of: Number(source), split_part: "test" },
    ]);
  });

  it("shuffles with the given seed and ratio as upstream does", async () => {
    const source = await importMini();
    for (const [ratio, seed] of [["2:1:7", 7], ["3:1:1", 123]] as const) {
      const ids = partIds(await cli(["dataset", "split", source, "--ratio", ratio, "--seed", String(seed)]));
      const expected = upstream(ratio, seed);
      for (const name of ["train", "val", "test"] as const) expect(await exportedIds(ids[name])).toEqual(expected[name]);
    }
  });

  it("refuses bad input with exit code 2, a clear message and nothing stored", async () => {
    const source = await importMini();
    const cases: [string[], string][] = [
      [["dataset", "split", source, "--ratio", "2:x:7"], "error: dataset split: split_ratio must contain integers, got '2:x:7'"],
      [["dataset", "split", source, "--ratio", "2:1:7", "--seed", "abc"], 'error: dataset split: --seed must be a non-negative integer, got "abc"'],
      [["dataset", "split", source, "--ratio", "1:1:30"], "error: dataset split: ratio 1:1:30, seed 42 leaves the val part empty (12 items)"],
      [["dataset", "split", source], "error: dataset split: give either --ratio or --manifest"],
      [["dataset", "split", source, "--ratio", "2:1:7", "--manifest", t.dir], "error: dataset split: give either --ratio or --manifest"],
      [["dataset", "split", "77", "--ratio", "2:1:7"], "error: dataset 77 not found"],
      [["dataset", "split", "--ratio", "2:1:7"], "error: dataset split: expected exactly one dataset ID"],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: "" });
      expect(result.stderr).toContain(message);
    }
    expect(jsonLines((await cli(["dataset", "list"])).stdout)).toHaveLength(1);
  });
});

describe("dataset split --manifest", () => {
  const writeManifest = (dir: string, parts: Record<string, string>) => {
    for (const [name, text] of Object.entries(parts)) {
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, "items.json"), text);
    }
  };
  const idList = (ids: string[]) => JSON.stringify(ids.map((id) => ({ id })), null, 2);

  it("stores the parts in the manifest's order (SkillOpt's split_dir layout)", async () => {
    const source = await importMini();
    const dir = join(t.dir, "searchqa_id_split");
    writeManifest(dir, { train: idList(["sq-012", "sq-001", "sq-005"]), val: idList(["sq-003", "sq-002"]), test: idList(["sq-010", "sq-004"]) });
    const ids = partIds(await cli(["dataset", "split", source, "--manifest", dir]));
    expect(await exportedIds(ids.train)).toEqual(["sq-012", "sq-001", "sq-005"]);
    expect(await exportedIds(ids.val)).toEqual(["sq-003", "sq-002"]);
    expect(await exportedIds(ids.test)).toEqual(["sq-010", "sq-004"]);
    expect(partIds(await cli(["dataset", "split", source, "--manifest", dir]))).toEqual(ids);
  });

  it("names the file, item, line and field of a bad manifest, exits 2 and stores nothing", async () => {
    const source = await importMini();
    const dir = join(t.dir, "manifest");
    writeManifest(dir, { train: idList(["sq-001", "sq-999"]), val: idList(["sq-002"]), test: idList(["sq-003"]) });
    const unknown = await cli(["dataset", "split", source, "--manifest", dir]);
    expect({ code: unknown.code, stdout: unknown.stdout }).toEqual({ code: 2, stdout: "" });
    expect(unknown.stderr).toContain(`${join(dir, "train", "items.json")}: item 2 (line 5): field "id": "sq-999" is not an item of the dataset`);

    writeManifest(dir, { val: '[{"id": "sq-002"}' });
    const malformed = await cli(["dataset", "split", source, "--manifest", dir]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain(`${join(dir, "val", "items.json")}: line 1: invalid JSON`);

    const missing = await cli(["dataset", "split", source, "--manifest", join(t.dir, "nowhere")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${join(t.dir, "nowhere")}: no such directory`);
    expect(jsonLines((await cli(["dataset", "list"])).stdout)).toHaveLength(1);
  });
});

describe("dataset export", () => {
  it("writes the items as JSONL in order, which dataset import reads back to the same items", async () => {
    const file = join(t.dir, "rich.jsonl");
    const items = [
      { id: "b-2", question: "Second?", context: "", answers: ["two", "2"], category: "numbers", meta: { level: 3 } },
      { id: "a-1", question: "First \"quoted\"?", context: "[DOC] x", answers: ["one"], diagnostic_trace_context: "earlier trace" },
    ];
    writeFileSync(file, items.map((item) => JSON.stringify(item)).join("\n"));
    const imported = await cli(["dataset", "import", file]);
    const exported = await cli(["dataset", "export", imported.stdout.trim()]);
    expect(exported.code).toBe(0);
    expect(jsonLines(exported.stdout)).toEqual(items);

    const copy = join(t.dir, "copy.jsonl");
    writeFileSync(copy, exported.stdout);
    const reimported = await cli(["dataset", "import", copy]);
    expect(reimported.code).toBe(0);
    expect((await cli(["dataset", "export", reimported.stdout.trim()])).stdout).toBe(exported.stdout);

    const unknown = await cli(["dataset", "export", "99"]);
    expect({ code: unknown.code, stdout: unknown.stdout }).toEqual({ code: 2, stdout: "" });
    expect(unknown.stderr).toContain("dataset 99 not found");
  });
});
