// The dashboard's worker: queued runs are claimed from the database, runs left "running" by a dead
// process are resumed, runs a live process holds are left alone, and retrying failed items reruns only those.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getFailureReasons, getRun, getRunCurve, newWorkerId, queueRunForResume, retryFailedItems, RunBusyError } from "@/lib/db";
import { executeRun, startRunWorker, type RunWorker } from "@/lib/rollout";
import { faultAlways, startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { createStoredRun, fastModel, makeItems, storedResults } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;
let worker: RunWorker | undefined;
beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer({ latencyMs: 5 });
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  await server.close();
  await t.close();
});

async function waitForStatus(runId: number, status: string) {
  await expect.poll(async () => (await getRun(t.db, runId)).status, { timeout: 10_000, interval: 20 }).toBe(status);
  return getRun(t.db, runId);
}

/**
 * The ids each poll of the worker started executing, for tests of what the worker must leave alone: once a poll
 * has started a run a second time, the first attempt has ended (a poll skips the runs it is still executing), so
 * the worker has had its chance at the run and let go of it.
 */
function recordPolls(): { onPoll(started: number[]): void; attempts(runId: number): number[] } {
  const polls: { at: number; started: number[] }[] = [];
  return {
    onPoll: (started) => polls.push({ at: performance.now(), started }),
    /** When each poll that started `runId` ended (ms, performance.now()). */
    attempts: (runId) => polls.filter((poll) => poll.started.includes(runId)).map((poll) => poll.at),
  };
}

describe("run worker", () => {
  it("executes queued runs, several at once", async () => {
    const first = await createStoredRun(t.db, { items: makeItems(10), baseURL: server.baseURL });
    const second = await createStoredRun(t.db, { items: makeItems(10), baseURL: server.baseURL });
    worker = startRunWorker({ db: t.db, pollMs: 50, log: () => {} });
    expect((await waitForStatus(first.id, "completed")).nDone).toBe(10);
    expect((await waitForStatus(second.id, "completed")).nDone).toBe(10);
  });

  it("resumes a run left running by a process that died, keeping what it finished", async () => {
    const run = await createStoredRun(t.db, { items: makeItems(12), baseURL: server.baseURL, settings: { limit: 12 } });
    await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    // Simulate a crash part-way: drop the last 5 results, mark the run running under a dead process.
    const doomed = (await t.db.runResult.findMany({ where: { runId: run.id, seq: { gt: 7 } }, select: { itemId: true } })).map((r) => r.itemId);
    await t.db.runItemConversation.deleteMany({ where: { runId: run.id, itemId: { in: doomed } } });
    await t.db.runResult.deleteMany({ where: { runId: run.id, itemId: { in: doomed } } });
    const kept = await t.db.runResult.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
    await t.db.run.update({ where: { id: run.id }, data: { status: "running", workerId: "elsewhere:999999:dead", heartbeatAt: new Date(0), nDone: 7 } });
    server.requests.length = 0;

    worker = startRunWorker({ db: t.db, pollMs: 50, log: () => {} });
    const done = await waitForStatus(run.id, "completed");
    expect(done.nDone).toBe(12);
    expect(server.requests.map((r) => r.question).sort()).toEqual(
      makeItems(12).filter((item) => doomed.includes(item.id)).map((item) => item.question).sort(),
    );
    const after = await t.db.runResult.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
    expect(after.slice(0, 7)).toEqual(kept);
  });

  it("leaves alone a run whose lease a live process holds", async () => {
    const run = await createStoredRun(t.db, { items: makeItems(3), baseURL: server.baseURL });
    await t.db.run.update({ where: { id: run.id }, data: { status: "running", workerId: `${(await import("node:os")).hostname()}:${process.pid}:other`, heartbeatAt: new Date() } });
    const logs: string[] = [];
    const polls = recordPolls();
    worker = startRunWorker({ db: t.db, pollMs: 50, log: (line) => logs.push(line), onPoll: polls.onPoll });
    await expect.poll(() => polls.attempts(run.id).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(server.stats().requests).toBe(0);
    expect((await getRun(t.db, run.id)).status).toBe("running");
    // Looked at once per poll, quietly: not re-polled at once in a loop, nor logged as a resume it never made.
    const [first, second] = polls.attempts(run.id);
    expect(second! - first!).toBeGreaterThanOrEqual(45); // pollMs, less a timer's rounding
    expect(logs).toEqual([]);
  });

  it("leaves a run created for a process (the CLI) to that process, which then executes it", async () => {
    const workerId = newWorkerId();
    const run = await createStoredRun(t.db, { items: makeItems(3), baseURL: server.baseURL, leaseFor: workerId });
    expect(run.status).toBe("running");
    const polls = recordPolls();
    worker = startRunWorker({ db: t.db, pollMs: 20, log: () => {}, onPoll: polls.onPoll });
    await expect.poll(() => polls.attempts(run.id).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(server.stats().requests).toBe(0);
    expect((await executeRun(t.db, run.id, { workerId, model: fastModel(server.baseURL) })).status).toBe("completed");
    expect(server.stats().requests).toBe(3);
  });

  it("never takes a run that finished or was cancelled after it was listed", async () => {
    const run = await createStoredRun(t.db, { items: makeItems(3), baseURL: server.baseURL });
    await t.db.run.update({ where: { id: run.id }, data: { status: "cancelled" } });
    // What the worker does with a run it listed as queued a moment earlier.
    await expect(executeRun(t.db, run.id, { model: fastModel(server.baseURL), claimableStatuses: ["queued", "running"] })).rejects.toBeInstanceOf(RunBusyError);
    expect((await getRun(t.db, run.id)).status).toBe("cancelled");
    expect(server.stats().requests).toBe(0);
    // An explicit resume (the CLI's) still may.
    expect((await executeRun(t.db, run.id, { model: fastModel(server.baseURL) })).status).toBe("completed");
  });
});

describe("retry failed items and resume", () => {
  it("reruns only the errors and timeouts, and rebuilds counters, order and the curve", async () => {
    server.setOptions({ faults: faultAlways(/number [357]\?/, { kind: "status", status: 500 }) });
    const run = await createStoredRun(t.db, { items: makeItems(10, (i) => i === 0), baseURL: server.baseURL, settings: { maxRetries: 2 } });
    const first = await executeRun(t.db, run.id, { model: fastModel(server.baseURL, { maxRetries: 2 }) });
    expect(first).toMatchObject({ status: "completed", nErrors: 3, nDone: 10, retries: 6 });
    expect(first.promptTokens).toBeGreaterThan(0);
    expect((await getFailureReasons(t.db, first))[0]).toMatchObject({ count: 3 });

    const { removed } = await retryFailedItems(t.db, run.id);
    expect(removed).toBe(3);
    const queued = await getRun(t.db, run.id);
    expect(queued).toMatchObject({ status: "queued", nDone: 7, nErrors: 0, emSum: 6 });
    // The calls already made stay counted: 3 items × 2 retries, and every token.
    expect(queued).toMatchObject({ retries: 6, promptTokens: first.promptTokens, completionTokens: first.completionTokens });

    server.setOptions({ faults: undefined });
    server.requests.length = 0;
    const done = await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    expect(done).toMatchObject({ status: "completed", nDone: 10, nErrors: 0, emSum: 9, retries: 6 });
    expect(done.promptTokens).toBeGreaterThan(first.promptTokens);
    expect(server.requests).toHaveLength(3);
    const rows = await storedResults(t.db, run.id);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const curve = await getRunCurve(t.db, run.id);
    expect(curve.at(-1)).toMatchObject({ n: 10, em: 0.9 });
  });

  it("queues an interrupted run for the worker, and refuses to requeue a completed one", async () => {
    const run = await createStoredRun(t.db, { items: makeItems(4), baseURL: server.baseURL });
    await t.db.run.update({ where: { id: run.id }, data: { status: "interrupted" } });
    expect((await queueRunForResume(t.db, run.id)).status).toBe("queued");
    await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    await expect(queueRunForResume(t.db, run.id)).rejects.toThrow(/completed/);
  });
});

describe("running accuracy curve", () => {
  it("is downsampled on the server and ends at the run's final means", async () => {
    const run = await createStoredRun(t.db, { items: makeItems(1000, (i) => i % 4 === 0), baseURL: server.baseURL, settings: { concurrency: 64 } });
    const done = await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    const curve = await getRunCurve(t.db, run.id, 100);
    expect(curve.length).toBeLessThanOrEqual(101);
    expect(curve.length).toBeGreaterThanOrEqual(90);
    expect(curve.at(-1)!.n).toBe(1000);
    expect(curve.at(-1)!.em).toBeCloseTo(done.emSum / 1000, 10);
    expect(curve.at(-1)!.em).toBeCloseTo(0.75, 10);
    expect(curve.every((point) => point.em >= 0 && point.em <= 1 && point.f1 >= point.em - 1e-12)).toBe(true);

    // Every k-th completed item plus the last, each point the means over the items completed up to it.
    const rows = await storedResults(t.db, run.id);
    const meansAt = (n: number) => rows.filter((row) => row.seq <= n).reduce((sum, row) => sum + row.em, 0) / n;
    const sparse = await getRunCurve(t.db, run.id, 7);
    expect(sparse.map((point) => point.n)).toEqual([143, 286, 429, 572, 715, 858, 1000]);
    for (const point of sparse) expect(point.em).toBeCloseTo(meansAt(point.n), 12);
    expect((await getRunCurve(t.db, run.id, 300)).map((point) => point.n)).toEqual(Array.from({ length: 250 }, (_, i) => (i + 1) * 4));
    expect((await getRunCurve(t.db, run.id, 5000)).map((point) => point.n)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  });
});
