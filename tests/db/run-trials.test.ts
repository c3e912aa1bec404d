// The item explorer over a run with repeated trials: one row per trial, the Flaky filter (every trial of an item whose
// trials disagree on EM) with its count, prev / next walking trials, and the per-item counts behind pass@k.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countItemsByFilter, getItemNeighbours, getItemTrialCounts, getItemTrials, queryRunItems } from "@/lib/db";
import type { ItemResult } from "@/lib/runs/types";
import { makeItemResults, writeGeneratedRun } from "../support/item-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

const K = 3;
let t: TestDatabase;
let runId: number;
let rows: ItemResult[];

/** Trial `trial` of item `index` turns a correct answer wrong on a fixed pattern, so some correct items become flaky. */
const flips = (index: number, trial: number) => trial > 1 && index % 4 === trial;

beforeAll(async () => {
  t = createTestDb();
  const base = makeItemResults(40, { seed: 5 });
  rows = [];
  for (let trial = 1; trial <= K; trial++) {
    for (const [index, r] of base.entries()) {
      rows.push(
        flips(index, trial) && r.em === 1
          ? { ...r, trial, em: 0, f1: 0, subEm: 0, hard: 0, soft: 0, predictedAnswer: "Nobody", status: "wrong", failReason: "wrong" }
          : { ...r, trial },
      );
    }
  }
  runId = (await writeGeneratedRun(t.db, rows, { trials: K })).runId;
}, 60_000);
afterAll(() => t.close());

function expectedFlakyItems(): Set<string> {
  const byItem = new Map<string, number[]>();
  for (const r of rows) byItem.set(r.itemId, [...(byItem.get(r.itemId) ?? []), r.em]);
  return new Set([...byItem].filter(([, ems]) => ems.some((em) => em === 1) && ems.some((em) => em < 1)).map(([id]) => id));
}

describe("explorer over repeated trials", () => {
  it("lists every trial of the flaky items under Flaky, and counts them", async () => {
    const flaky = expectedFlakyItems();
    expect(flaky.size).toBeGreaterThan(3);
    const counts = await countItemsByFilter(t.db, runId, undefined);
    expect(counts.all).toBe(40 * K);
    expect(counts.flaky).toBe(flaky.size * K);
    const page = await queryRunItems(t.db, runId, { filter: "flaky", sort: "item", dir: "asc", page: 1 }, { pageSize: 500 });
    expect(new Set(page.rows.map((row) => row.itemId))).toEqual(flaky);
    // Dataset order, each item's trials together in trial order.
    const first = page.rows.filter((row) => row.itemId === page.rows[0]!.itemId).map((row) => row.trial);
    expect(first).toEqual([1, 2, 3]);
  });

  it("walks trials with next and prev, and knows each trial's place", async () => {
    const query = { filter: "flaky" as const, sort: "item" as const, dir: "asc" as const };
    const page = await queryRunItems(t.db, runId, { ...query, page: 1 }, { pageSize: 500 });
    const [a, b, c] = page.rows;
    const middle = await getItemNeighbours(t.db, runId, b!.itemId, query, b!.trial);
    expect(middle.prev).toEqual({ itemId: a!.itemId, trial: a!.trial });
    expect(middle.next).toEqual({ itemId: c!.itemId, trial: c!.trial });
    expect(middle.position).toBe(2);
  });

  it("gives each item's trial counts, and every trial of an item in order", async () => {
    const counts = await getItemTrialCounts(t.db, runId);
    expect(counts).toHaveLength(40);
    expect(counts.every((item) => item.trials === K)).toBe(true);
    expect(counts.reduce((sum, item) => sum + item.correct, 0)).toBe(rows.filter((r) => r.em === 1).length);
    const trials = await getItemTrials(t.db, runId, rows[0]!.itemId);
    expect(trials.map((row) => row.trial)).toEqual([1, 2, 3]);
  });
});
