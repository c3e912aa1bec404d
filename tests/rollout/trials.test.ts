// Repeated trials through the real executor, client and database: each trial is its own row, consistency and pass@k
// follow from a seeded stochastic model, a resumed run completes every (item, trial) exactly once, retry-failed redoes
// only the failed trials, and trials after the first never take a reply from the response cache.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getItemConversation, getItemTrialCounts, getItemTrials, getRun, retryFailedItems } from "@/lib/db";
import { executeRun } from "@/lib/rollout";
import { consistencyOf, summarizeTrials } from "@/lib/runs/trials";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { clueIndexOf, sampleIsRight, stochasticAnswer } from "../support/stochastic-answer";
import { createStoredRun, makeItems, storedResults } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;
beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  await server.close();
  await t.close();
});

const indexOf = clueIndexOf;

describe("repeated trials", () => {
  it("stores one row per item and trial, and finds exactly the flaky items of a stochastic model", async () => {
    server.setOptions({ answer: stochasticAnswer() });
    const items = makeItems(30);
    const run = await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { trials: 3, concurrency: 8 } });
    expect(run.itemsTotal).toBe(90);
    const done = await executeRun(t.db, run.id);
    expect(done.status).toBe("completed");
    expect(done.nDone).toBe(90);
    expect(server.stats().requests).toBe(90);

    const rows = await storedResults(t.db, run.id);
    expect(new Set(rows.map((row) => `${row.itemId}/${row.trial}`)).size).toBe(90);
    // Trial-major order: every item's first trial is done before any second trial starts being handed out.
    const firstSecond = rows.findIndex((row) => row.trial === 2);
    expect(rows.slice(0, firstSecond).every((row) => row.trial === 1)).toBe(true);

    const expectedOf = (index: number) => consistencyOf([1, 2, 3].filter((sample) => sampleIsRight(index, sample)).length, 3);
    const expectedCount = (kind: string) => items.filter((_, index) => expectedOf(index) === kind).length;
    const expectedFlaky = items.filter((_, index) => expectedOf(index) === "flaky").map((item) => item.id);
    expect(expectedFlaky.length).toBeGreaterThan(2);
    const byItem = new Map<string, number[]>();
    for (const row of rows) byItem.set(row.itemId, [...(byItem.get(row.itemId) ?? []), row.em]);
    const flaky = [...byItem].filter(([, ems]) => consistencyOf(ems.filter((em) => em === 1).length, ems.length) === "flaky").map(([id]) => id);
    expect(flaky.sort()).toEqual(expectedFlaky.sort());

    const summary = summarizeTrials(await getItemTrialCounts(t.db, run.id), 3);
    expect(summary).toMatchObject({
      items: 30, alwaysRight: expectedCount("always_right"), alwaysWrong: expectedCount("always_wrong"), flaky: expectedFlaky.length, complete: 30,
    });
    expect(summary.alwaysRight).toBeGreaterThan(10);
    // The run's EM is the mean over all 90 trials.
    expect(done.emSum / done.nDone).toBeCloseTo(rows.reduce((sum, row) => sum + row.em, 0) / 90, 12);
    // Each trial keeps its own conversation.
    const [one, two] = await getItemTrials(t.db, run.id, flaky[0]!);
    expect([one!.trial, two!.trial]).toEqual([1, 2]);
    expect((await getItemConversation(t.db, run.id, flaky[0]!, 3))?.conversation.length).toBeGreaterThan(0);
  });

  it("resumes an interrupted run with trials: every (item, trial) done exactly once", async () => {
    const items = makeItems(20);
    const run = await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { trials: 3, concurrency: 4 } });
    const stop = new AbortController();
    let seen = 0;
    const paused = await executeRun(t.db, run.id, {
      signal: stop.signal,
      onEvent: (event) => {
        if (event.kind === "item" && ++seen === 25) stop.abort();
      },
    });
    expect(paused.status).toBe("interrupted");
    expect(paused.nDone).toBeGreaterThanOrEqual(25);
    expect(paused.nDone).toBeLessThan(60);
    const done = await executeRun(t.db, run.id);
    expect(done.status).toBe("completed");
    const rows = await storedResults(t.db, run.id);
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((row) => `${row.itemId}/${row.trial}`)).size).toBe(60);
    expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(done.nDone).toBe(60);
  });

  it("retries only the failed trials, keeping the other trials of the same item", async () => {
    const items = makeItems(6);
    // The third request of item 2 (its third sample) fails for good.
    server.setOptions({ faults: { pick: (ctx) => (indexOf(ctx.question) === 2 && ctx.attemptForQuestion === 3 ? { kind: "status", status: 500 } : undefined) } });
    const run = await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { trials: 3, maxRetries: 0, concurrency: 1 } });
    await executeRun(t.db, run.id);
    const failed = (await storedResults(t.db, run.id)).filter((row) => row.status === "error");
    expect(failed.map((row) => [row.itemId, row.trial])).toEqual([["q0002", 3]]);
    server.setOptions({ faults: undefined });
    const { removed } = await retryFailedItems(t.db, run.id);
    expect(removed).toBe(1);
    expect((await getItemTrials(t.db, run.id, "q0002")).map((row) => row.trial)).toEqual([1, 2]);
    const done = await executeRun(t.db, run.id);
    expect(done.nDone).toBe(18);
    expect(done.nErrors).toBe(0);
    expect((await getItemTrials(t.db, run.id, "q0002")).map((row) => [row.trial, row.status])).toEqual([[1, "correct"], [2, "correct"], [3, "correct"]]);
  });

  it("takes trial 1 from the response cache on a re-run and samples trials 2 and later afresh", async () => {
    const items = makeItems(10);
    await executeRun(t.db, (await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { cache: true, trials: 2 } })).id);
    expect(server.stats().requests).toBe(20);
    server.resetStats();
    const again = await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { cache: true, trials: 2 } });
    const done = await executeRun(t.db, again.id);
    expect(done.nDone).toBe(20);
    expect(server.stats().requests).toBe(10);
    const rows = await t.db.runResult.findMany({ where: { runId: again.id }, select: { trial: true, cachedFromRunId: true } });
    expect(rows.filter((row) => row.trial === 1).every((row) => row.cachedFromRunId !== null)).toBe(true);
    expect(rows.filter((row) => row.trial === 2).every((row) => row.cachedFromRunId === null)).toBe(true);
    expect((await getRun(t.db, again.id)).status).toBe("completed");
  });
});
