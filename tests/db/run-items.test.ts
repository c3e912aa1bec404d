// The item explorer's query layer on a generated run of many items, checked against a plain-JavaScript model of the
// same filters, sorts and search: counts, pages, failure groups, prev/next, and the search index kept in step.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  countItemsByFilter, getItemNeighbours, listItemInOtherRuns, NotFoundError, queryRunItems, ResultWriter, retryFailedItems,
} from "@/lib/db";
import {
  ITEM_FILTERS, ITEM_SORT_KEYS, parseItemQuery, reasonKey, type ItemFilter, type ItemQuery, type ItemSortKey,
} from "@/lib/runs/item-query";
import type { ItemResult } from "@/lib/runs/types";
import { searchCondition } from "@/lib/db/explorer-search";
import { makeItemResults, writeGeneratedRun } from "../support/item-fixtures";
import { createTestDb, TEST_ENGINE, type TestDatabase } from "../support/test-db";

const N = 1500;
const SPECIAL_IDS: Record<number, string> = { 7: "a/b c?#%&=", 8: "ünï-çødé" };
const idOf = (index: number) => SPECIAL_IDS[index] ?? `sq-${String(index).padStart(6, "0")}`;

let t: TestDatabase;
let results: ItemResult[];
let runId: number;
let otherRunId: number;

beforeAll(async () => {
  t = createTestDb();
  results = makeItemResults(N, { seed: 3, idOf });
  const written = await writeGeneratedRun(t.db, results);
  runId = written.runId;
  otherRunId = (await writeGeneratedRun(t.db, makeItemResults(300, { seed: 9, idOf }), { datasetId: written.datasetId })).runId;
}, 60_000);
afterAll(() => t.close());

// ------------------------------------------------------------------------------------------- the model

const FILTER: Record<ItemFilter, (r: ItemResult) => boolean> = {
  all: () => true,
  failing: (r) => r.em === 0,
  correct: (r) => r.status === "correct",
  wrong: (r) => r.status === "wrong",
  errors: (r) => r.status === "error",
  timeouts: (r) => r.status === "timeout",
  partial: (r) => r.f1 > 0 && r.f1 < 1,
  subem: (r) => r.subEm > 0 && r.em === 0,
  // One trial per item here: no item can disagree with itself (tests/db/run-trials.test.ts covers runs with trials).
  flaky: () => false,
};
const STATUS_RANK = { correct: 0, wrong: 1, timeout: 2, error: 3 };
const KEY: Record<ItemSortKey, (r: ItemResult) => string | number> = {
  item: (r) => r.datasetItemId,
  question: (r) => r.question,
  gold: (r) => JSON.stringify(r.goldAnswers),
  predicted: (r) => r.predictedAnswer,
  em: (r) => r.em,
  f1: (r) => r.f1,
  subEm: (r) => r.subEm,
  status: (r) => STATUS_RANK[r.status],
  latency: (r) => r.latencyMs,
  turns: (r) => r.nTurns,
};

function searchMatches(r: ItemResult, term: string): boolean {
  const fields = [r.question, r.predictedAnswer, r.response];
  // Trigram folds case; LIKE (under 3 characters) folds ASCII case and reads the gold answers' JSON.
  if (Array.from(term).length >= 3) return [...fields, r.goldAnswers.join("\n")].some((f) => f.toLowerCase().includes(term.toLowerCase()));
  return [...fields, JSON.stringify(r.goldAnswers)].some((f) => f.toLowerCase().includes(term.toLowerCase()));
}

/** The item ids of the view in order (rows are stored in `results` order, so the index is the row id). */
function expected(query: Omit<ItemQuery, "page">, rows: ItemResult[] = results): string[] {
  const sign = query.dir === "asc" ? 1 : -1;
  return rows
    .map((r, index) => ({ r, index }))
    .filter(({ r }) => FILTER[query.filter](r) && (query.reason === undefined || r.failReason === query.reason) && (!query.q || searchMatches(r, query.q)))
    .sort((a, b) => {
      const x = KEY[query.sort](a.r);
      const y = KEY[query.sort](b.r);
      // Ties in dataset order whichever the direction.
      return x !== y ? (x < y ? -sign : sign) : a.r.datasetItemId - b.r.datasetItemId || a.index - b.index;
    })
    .map(({ r }) => r.itemId);
}

const q = (params: Record<string, string>) => parseItemQuery(params, { filter: "failing" });

// ------------------------------------------------------------------------------------------- tests

describe("queryRunItems", () => {
  it("counts every filter in one pass and lists each filter's first page in dataset order", async () => {
    const counts = Object.fromEntries(ITEM_FILTERS.map((filter) => [filter, results.filter(FILTER[filter]).length]));
    expect(await countItemsByFilter(t.db, runId, undefined)).toEqual(counts);
    for (const filter of ITEM_FILTERS) {
      const page = await queryRunItems(t.db, runId, q({ filter }));
      const ids = expected(q({ filter }));
      expect(page.total, filter).toBe(ids.length);
      expect(page.counts).toEqual(counts);
      expect(page.rows.map((row) => row.itemId), filter).toEqual(ids.slice(0, 50));
      expect(page.hasNext).toBe(ids.length > 50);
    }
    // Every kind of outcome is there, so no filter is trivially empty (but Flaky, which needs repeated trials:
    // tests/db/run-trials.test.ts fills it).
    expect(Object.entries(counts).every(([filter, count]) => (filter === "flaky" ? count === 0 : count > 20))).toBe(true);
  });

  it("sorts by every column both ways, the row order breaking ties", async () => {
    for (const sort of ITEM_SORT_KEYS) {
      for (const dir of ["asc", "desc"] as const) {
        for (const page of [1, 3]) {
          const query = q({ filter: "failing", sort, dir, page: String(page) });
          const rows = (await queryRunItems(t.db, runId, query)).rows.map((row) => row.itemId);
          expect(rows, `${sort} ${dir} page ${page}`).toEqual(expected(query).slice((page - 1) * 50, page * 50));
        }
      }
    }
  });

  it("pages through a whole view, every item once, and shows the last page for a page past the end", async () => {
    const query = q({ filter: "wrong", sort: "latency" });
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const result = await queryRunItems(t.db, runId, { ...query, page });
      seen.push(...result.rows.map((row) => row.itemId));
      if (!result.hasNext) break;
    }
    expect(seen).toEqual(expected(query));
    const past = await queryRunItems(t.db, runId, { ...query, page: 9999 });
    expect(past.page).toBe(past.pageCount);
    expect(past.rows.map((row) => row.itemId)).toEqual(expected(query).slice((past.pageCount - 1) * 50));
    const small = await queryRunItems(t.db, runId, { ...query, page: 2 }, { pageSize: 7 });
    expect(small.rows.map((row) => row.itemId)).toEqual(expected(query).slice(7, 14));
  });

  it("answers an empty first page for a run without results", async () => {
    const { runId: empty } = await writeGeneratedRun(t.db, []);
    const page = await queryRunItems(t.db, empty, q({ filter: "failing", page: "5", q: "x" }));
    expect(page).toMatchObject({ rows: [], page: 1, pageCount: 1, hasNext: false, total: 0, groups: [], search: "scan" });
    expect(Object.values(page.counts)).toEqual(ITEM_FILTERS.map(() => 0));
  });

  it("returns the table's fields of each row, never the response", async () => {
    const [row] = (await queryRunItems(t.db, runId, q({ filter: "all", q: "clue 7)" }))).rows;
    const source = results[7]!;
    expect(row).toEqual({
      itemId: "a/b c?#%&=", trial: 1, cachedFromRunId: null, question: source.question, goldAnswers: source.goldAnswers, predictedAnswer: source.predictedAnswer,
      em: source.em, f1: source.f1, subEm: source.subEm, status: source.status, latencyMs: source.latencyMs, nTurns: source.nTurns,
      failReason: source.failReason,
    });
  });

  it("searches question, gold, prediction and response, case-insensitively, with the trigram index or a scan", async () => {
    const terms = ["LINCOLN", "clue 42)", "so the answer is CLEAR", "ünï", "Ma", "y", "%", "_", 'say "x', "\\", "zzzz"];
    for (const term of terms) {
      for (const filter of ["all", "failing", "subem"] as const) {
        const query = q({ filter, q: term, sort: "f1" });
        const page = await queryRunItems(t.db, runId, query);
        const ids = expected(query);
        expect(page.total, `${term} ${filter}`).toBe(ids.length);
        expect(page.rows.map((row) => row.itemId), `${term} ${filter}`).toEqual(ids.slice(0, 50));
        expect(page.counts.all).toBe(expected({ ...query, filter: "all" }).length);
        expect(page.search).toBe(Array.from(term).length >= 3 ? "fulltext" : "scan");
      }
    }
    // A term in the gold answers only (the trigram index holds them one per line).
    const goldOnly = results.find((r) => r.status === "error")!;
    const page = await queryRunItems(t.db, runId, q({ filter: "errors", q: goldOnly.goldAnswers[0]! }));
    expect(page.rows.map((row) => row.itemId)).toContain(goldOnly.itemId);
  });

  it("keeps a run's search to its own results", async () => {
    expect((await queryRunItems(t.db, runId, q({ filter: "all", q: "clue 1400)" }))).total).toBe(1);
    expect((await queryRunItems(t.db, otherRunId, q({ filter: "all", q: "clue 1400)" }))).total).toBe(0);
    expect((await queryRunItems(t.db, otherRunId, q({ filter: "all", q: "clue 42)" }))).total).toBe(1);
  });

  it("groups failures: wrong answers, timeouts, and model errors by message, each a filter", async () => {
    const { groups, counts } = await queryRunItems(t.db, runId, q({}));
    expect(groups.reduce((sum, group) => sum + group.count, 0)).toBe(counts.failing);
    expect(groups).toContainEqual({ filter: "wrong", label: "Wrong answer", count: counts.wrong });
    expect(groups).toContainEqual({ filter: "timeouts", label: "Timeout", count: counts.timeouts });
    const byMessage = new Map<string, number>();
    for (const r of results.filter((r) => r.status === "error")) byMessage.set(r.failReason, (byMessage.get(r.failReason) ?? 0) + 1);
    // More distinct messages than are listed: the largest seven, then the rest together.
    expect(byMessage.size).toBeGreaterThan(8);
    const messages = groups.filter((group) => group.reason !== undefined);
    expect(messages).toHaveLength(7);
    for (const group of messages) expect(group.count).toBe(byMessage.get(group.reason!));
    const listed = messages.reduce((sum, group) => sum + group.count, 0);
    expect(groups.find((group) => group.label === "Other errors")).toEqual({ filter: "errors", label: "Other errors", count: counts.errors - listed });
    // Largest first, "other errors" last.
    const named = groups.slice(0, -1).map((group) => group.count);
    expect(named).toEqual([...named].sort((a, b) => b - a));
    expect(groups.at(-1)?.label).toBe("Other errors");

    const top = messages[0]!;
    const filtered = await queryRunItems(t.db, runId, q({ filter: "errors", reason: top.reason! }));
    expect(filtered.total).toBe(top.count);
    expect(filtered.rows.map((row) => row.itemId)).toEqual(expected(q({ filter: "errors", reason: top.reason! })).slice(0, 50));
  });
});

describe("failure groups with long messages", () => {
  it("filters a group whose message is too long for a URL by its start", async () => {
    const long = (tail: string) => `error: 400 ${"the server said no. ".repeat(40)}${tail}`;
    const batch = makeItemResults(40, { seed: 8 }).map((r, index) =>
      index < 6 ? { ...r, status: "error" as const, em: 0, f1: 0, subEm: 0, agentOk: false, failReason: index < 4 ? long("A") : long("B") } : r,
    );
    const { runId: id } = await writeGeneratedRun(t.db, batch);
    const { groups } = await queryRunItems(t.db, id, q({}));
    const a = groups.find((group) => group.reason === long("A"))!;
    expect(a.count).toBe(4);
    // Both messages start with the same 500 characters: the cut key selects them both.
    const key = reasonKey(a.reason!);
    expect(key.length).toBeLessThan(long("A").length);
    expect((await queryRunItems(t.db, id, q({ filter: "errors", reason: key }))).total).toBe(6);
    expect((await queryRunItems(t.db, id, q({ filter: "errors", reason: long("A") }))).total).toBe(4);
  });
});

describe("getItemNeighbours", () => {
  it("walks the view in the table's order with next and back with prev, knowing each item's place", async () => {
    const query = q({ filter: "subem", sort: "f1", dir: "desc" });
    const ids = expected(query);
    const walked: string[] = [];
    for (let id: string | null = ids[0]!; id !== null; ) {
      const neighbours = await getItemNeighbours(t.db, runId, id, query);
      expect(neighbours.position).toBe(walked.length + 1);
      expect(neighbours.total).toBe(ids.length);
      expect(neighbours.prev?.itemId ?? null).toBe(walked.at(-1) ?? null);
      walked.push(id);
      id = neighbours.next?.itemId ?? null;
    }
    expect(walked).toEqual(ids);
  });

  it("follows the search too, and places an item outside the view between its neighbours", async () => {
    const query = q({ filter: "all", q: "lincoln", sort: "question" });
    const ids = expected(query);
    const middle = await getItemNeighbours(t.db, runId, ids[5]!, query);
    expect(middle).toEqual({ prev: { itemId: ids[4], trial: 1 }, next: { itemId: ids[6], trial: 1 }, position: 6, total: ids.length });

    const correct = results.find((r) => r.status === "correct")!;
    const outside = await getItemNeighbours(t.db, runId, correct.itemId, q({ filter: "failing" }));
    expect(outside.position).toBeNull();
    const failing = expected(q({ filter: "failing" }));
    expect(outside.next?.itemId ?? null).toBe(failing.find((id) => results.findIndex((r) => r.itemId === id) > results.indexOf(correct)) ?? null);
    await expect(getItemNeighbours(t.db, runId, "no-such-item", query)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("listItemInOtherRuns", () => {
  it("lists the runs on the same dataset that have the item, with how each did", async () => {
    const other = await listItemInOtherRuns(t.db, { runId, datasetId: (await t.db.run.findUniqueOrThrow({ where: { id: runId } })).datasetId, itemId: "sq-000005" });
    expect(other).toHaveLength(1);
    expect(other[0]).toMatchObject({ runId: otherRunId, skillVersion: 1, model: "generated-model" });
    expect(["correct", "wrong", "error", "timeout"]).toContain(other[0]!.status);
  });
});

describe("the search index", () => {
  // SQLite's FTS5 table: index rows whose result is gone. (PostgreSQL's trigram indexes are on the rows themselves.)
  const searchIndexOrphans = async () =>
    Number((await t.db.$queryRaw<{ n: bigint | number }[]>`
      SELECT COUNT(*) AS n FROM "RunResultSearch" WHERE "RunResultSearch" MATCH '"clue"' AND rowid NOT IN (SELECT id FROM "RunResult")`)[0]!.n);
  const sqliteOnly = it.runIf(TEST_ENGINE === "sqlite");

  it("stays in step when failed items are retried and written again", async () => {
    const batch = makeItemResults(200, { seed: 5 });
    const { runId: retried } = await writeGeneratedRun(t.db, batch);
    const failed = batch.filter((r) => r.status === "error" || r.status === "timeout");
    expect(failed.length).toBeGreaterThan(0);
    const { removed } = await retryFailedItems(t.db, retried);
    expect(removed).toBe(failed.length);
    expect((await queryRunItems(t.db, retried, q({ filter: "all", q: "clue" }))).total).toBe(200 - failed.length);
    if (TEST_ENGINE === "sqlite") expect(await searchIndexOrphans()).toBe(0);

    // The retry writes those items again: each is found once.
    const writer = new ResultWriter(t.db, retried);
    for (const r of failed) writer.push({ ...r, status: "wrong", response: `retried <answer>x</answer>`, agentOk: true });
    await writer.flush();
    const again = await queryRunItems(t.db, retried, q({ filter: "all", q: "retried" }));
    expect(again.total).toBe(failed.length);
    expect((await queryRunItems(t.db, retried, q({ filter: "all", q: "clue" }))).total).toBe(200);
  });

  sqliteOnly("forgets a deleted run's results", async () => {
    const { runId: gone } = await writeGeneratedRun(t.db, makeItemResults(40, { seed: 13 }));
    await t.db.run.delete({ where: { id: gone } });
    expect(await searchIndexOrphans()).toBe(0);
  });

  it.runIf(TEST_ENGINE === "postgresql")("is PostgreSQL's trigram indexes, which a search of 3+ characters uses", async () => {
    const plan = await t.db.$transaction(async (tx) => {
      // The test run is small enough for a scan to be cheaper: the planner is told not to, to show the index serves.
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      return tx.$queryRaw<{ "QUERY PLAN": string }[]>`EXPLAIN SELECT "id" FROM "RunResult" WHERE ${searchCondition("postgresql", "clue")}`;
    });
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    for (const column of ["question", "goldAnswersJson", "predictedAnswer", "response"]) expect(text).toContain(`RunResult_${column}_trgm_idx`);
  });

  sqliteOnly("is filled for results stored before the migration by the migration's backfill", async () => {
    const { runId: old } = await writeGeneratedRun(t.db, makeItemResults(50, { seed: 11 }));
    await t.db.$executeRawUnsafe(`INSERT INTO "RunResultSearch" ("RunResultSearch") VALUES ('delete-all')`);
    // Searched straight through the index (the explorer's queries bring it up to date first: search-index.ts).
    const indexed = async (term: string) =>
      Number((await t.db.$queryRaw<{ n: bigint | number }[]>`
        SELECT COUNT(*) AS n FROM "RunResult" WHERE "runId" = ${old} AND ${searchCondition("sqlite", term)}`)[0]!.n);
    expect(await indexed("clue")).toBe(0);
    const migration = readFileSync("prisma/migrations/20261130010000_item_explorer/migration.sql", "utf8");
    const backfill = migration.slice(migration.indexOf('INSERT INTO "RunResultSearch"'));
    await t.db.$executeRawUnsafe(backfill);
    expect(await indexed("clue")).toBe(50);
    expect((await queryRunItems(t.db, old, q({ filter: "all", q: "clue" }))).total).toBe(50);
    expect((await queryRunItems(t.db, runId, q({ filter: "all", q: "clue 42)" }))).total).toBe(1);
  });

  sqliteOnly("is rebuilt from the rows by the next search when it was emptied", async () => {
    const { runId: lost } = await writeGeneratedRun(t.db, makeItemResults(30, { seed: 12 }));
    await t.db.$executeRawUnsafe(`INSERT INTO "RunResultSearch" ("RunResultSearch") VALUES ('delete-all')`);
    expect((await queryRunItems(t.db, lost, q({ filter: "all", q: "clue" }))).total).toBe(30);
    expect((await queryRunItems(t.db, runId, q({ filter: "all", q: "clue" }))).total).toBe(N);
  });
});
