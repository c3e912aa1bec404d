// Several writers storing results of one run at once (PostgreSQL's queue: worker processes on several machines, and a
// chunk delivered again after its worker was presumed dead): each (item, trial) is stored once, the order of completion
// has no gap or repeat, and the run's counters and running sums are those of the stored rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResultWriter } from "@/lib/db";
import { makeItemResults, writeGeneratedRun } from "../support/item-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeAll(() => {
  t = createTestDb();
});
afterAll(() => t.close());

describe("ResultWriter with several writers on one run", () => {
  it("stores each item once, numbers them 1..n and keeps the counters equal to the sums of the rows", async () => {
    const { runId } = await writeGeneratedRun(t.db, []);
    const results = makeItemResults(600, { seed: 3 });
    // Three writers: the first two split the items, the third (a redelivered chunk) writes an overlapping third again.
    const writers = [new ResultWriter(t.db, runId, { maxBatch: 37 }), new ResultWriter(t.db, runId, { maxBatch: 53 }), new ResultWriter(t.db, runId, { maxBatch: 41 })];
    const shares = [results.filter((_, i) => i % 2 === 0), results.filter((_, i) => i % 2 === 1), results.slice(200, 400)];
    await Promise.all(
      writers.map(async (writer, w) => {
        for (const [i, result] of shares[w]!.entries()) {
          writer.push(result);
          if (i % 25 === 0) await new Promise((resolve) => setImmediate(resolve));
        }
        await writer.flush();
      }),
    );
    const written = writers.reduce((sum, writer) => sum + writer.counts.written, 0);
    const skipped = writers.reduce((sum, writer) => sum + writer.counts.skipped, 0);
    expect(written).toBe(600);
    expect(skipped).toBe(200);

    const rows = await t.db.runResult.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    expect(rows).toHaveLength(600);
    expect(new Set(rows.map((row) => `${row.itemId}/${row.trial}`)).size).toBe(600);
    expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
    // The live curve: each row's running sum is the sum of the rows up to it, in completion order.
    let em = 0;
    for (const row of rows) {
      em += row.em;
      expect(row.cumEm).toBeCloseTo(em, 9);
    }
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.nDone).toBe(600);
    expect(run.emSum).toBeCloseTo(rows.reduce((sum, row) => sum + row.em, 0), 9);
    expect(run.f1Sum).toBeCloseTo(rows.reduce((sum, row) => sum + row.f1, 0), 9);
    expect(run.nErrors).toBe(rows.filter((row) => row.status === "error").length);
    expect(run.promptTokens).toBe(rows.reduce((sum, row) => sum + row.promptTokens, 0));
    expect(await t.db.runItemConversation.count({ where: { runId } })).toBe(600);
  });
});
