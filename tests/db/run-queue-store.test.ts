// PostgreSQL's queue as the database keeps it: the run's concurrency is a bound across its workers (slots), a worker
// that is gone stops counting, the run's gauges are the sums of its workers' and the live view lists them.
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureRunChunks, getRun, heartbeatQueueRun, joinQueueRun, leaveQueueRun, listQueueRuns, queueWorkerIdentity } from "@/lib/db";
import { pgTransaction } from "@/lib/db/postgres-client";
import { openRunQueue, type RunQueue } from "@/lib/db/run-queue";
import { planChunks } from "@/lib/rollout/queue-participation";
import { loadRunLive } from "@/app/_lib/live-payload";
import { createStoredRun, makeItems } from "../support/rollout-fixtures";
import { createTestDb, TEST_ENGINE, type TestDatabase } from "../support/test-db";

describe.runIf(TEST_ENGINE === "postgresql")("a run on PostgreSQL's queue", () => {
  let t: TestDatabase;
  let queue: RunQueue;
  beforeAll(async () => {
    t = createTestDb();
    queue = await openRunQueue(t.db, { ttlSeconds: 30 });
  });
  afterAll(async () => {
    await queue.stop();
    await t.close();
  });

  it("gives its workers at most its concurrency in all, sums their gauges and lists them in the live view", async () => {
    const run = await createStoredRun(t.db, { items: makeItems(100), baseURL: "http://127.0.0.1:9/v1", settings: { concurrency: 10 } });
    await ensureRunChunks(t.db, queue, run.id, () => planChunks(100, 1, 10));
    expect(await getRun(t.db, run.id)).toMatchObject({ status: "running", workerId: "queue" });
    // A worker on another machine (its process cannot be looked up here) and one on this machine.
    const far = queueWorkerIdentity("elsewhere:1:aaaa", "far");
    far.host = "elsewhere";
    const near = queueWorkerIdentity(`${hostname()}:${process.pid}:bbbb`, "near");
    const third = queueWorkerIdentity(`${near.host}:${process.pid}:cccc`, "third");
    expect(await joinQueueRun(t.db, queue, run.id, far, 6)).toBe(6);
    expect(await joinQueueRun(t.db, queue, run.id, near, 6)).toBe(4);
    expect(await joinQueueRun(t.db, queue, run.id, third, 6)).toBe(0);

    expect(await heartbeatQueueRun(t.db, run.id, far.id, { inFlight: 6, retrying: 2, rateLimited: 1 })).toBe("running");
    expect(await heartbeatQueueRun(t.db, run.id, near.id, { inFlight: 3, retrying: 1, rateLimited: 0 })).toBe("running");
    const live = await loadRunLive(t.db, run.id);
    expect(live.stats).toMatchObject({ inFlight: 9, retrying: 3, rateLimited: 1 });
    expect(live.workers.map((w) => [w.name, w.host, w.slots, w.inFlight])).toEqual([
      ["far", "elsewhere", 6, 6],
      ["near", near.host, 4, 3],
    ]);

    // A worker that leaves frees its slots for the next one.
    await leaveQueueRun(t.db, run.id, near.id);
    expect((await loadRunLive(t.db, run.id)).stats.inFlight).toBe(6);
    expect(await joinQueueRun(t.db, queue, run.id, third, 6)).toBe(4);
  });

  it("stops counting a worker whose process on this machine is gone", async () => {
    const run = await createStoredRun(t.db, { items: makeItems(20), baseURL: "http://127.0.0.1:9/v1", settings: { concurrency: 4 } });
    await ensureRunChunks(t.db, queue, run.id, () => planChunks(20, 1, 4));
    // A pid that no process has (above the kernel's pid_max): that worker was killed.
    const dead = queueWorkerIdentity(`${hostname()}:4194999:eeee`, "dead");
    const live = queueWorkerIdentity(`${hostname()}:${process.pid}:ffff`, "live");
    expect(await joinQueueRun(t.db, queue, run.id, dead, 4)).toBe(4);
    expect(await joinQueueRun(t.db, queue, run.id, live, 4)).toBe(4);
    expect((await t.db.runWorker.findMany({ where: { runId: run.id } })).map((w) => w.name)).toEqual(["live"]);
  });

  it("turns a run a dead process lease left running into the queue's, once when workers try at the same time; a live lease is kept", async () => {
    const dead = await createStoredRun(t.db, { items: makeItems(20), baseURL: "http://127.0.0.1:9/v1", settings: { concurrency: 4 }, leaseFor: `${hostname()}:4194999:old` });
    const attempts = await Promise.all([1, 2, 3].map(() => ensureRunChunks(t.db, queue, dead.id, () => planChunks(20, 1, 4))));
    expect(attempts.sort()).toEqual([null, null, "taken over"]);
    expect(await getRun(t.db, dead.id)).toMatchObject({ status: "running", workerId: "queue" });
    expect(await pgOpenJobs(dead.id)).toBe(planChunks(20, 1, 4).length);

    const live = await createStoredRun(t.db, { items: makeItems(20), baseURL: "http://127.0.0.1:9/v1", settings: { concurrency: 4 }, leaseFor: `${hostname()}:${process.pid}:live` });
    expect(await ensureRunChunks(t.db, queue, live.id, () => planChunks(20, 1, 4))).toBeNull();
    expect(await getRun(t.db, live.id)).toMatchObject({ status: "running", workerId: `${hostname()}:${process.pid}:live` });
    expect(await pgOpenJobs(live.id)).toBe(0);
    expect((await listQueueRuns(t.db)).map((run) => run.id)).toContain(dead.id);
    expect((await listQueueRuns(t.db)).map((run) => run.id)).not.toContain(live.id);
  });

  it("creates a new run's queue once when several workers start on it at the same moment", async () => {
    // Each its own pg-boss, as in worker processes of their own; ten new runs, each asked for by all four at once.
    const workers = await Promise.all([1, 2, 3, 4].map(() => openRunQueue(t.db, { ttlSeconds: 30 })));
    try {
      for (let round = 0; round < 10; round++) {
        const run = await createStoredRun(t.db, { items: makeItems(8), baseURL: "http://127.0.0.1:9/v1", settings: { concurrency: 2 } });
        const outcomes = await Promise.allSettled(workers.map((worker) => worker.ensureQueue(run.id)));
        expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
        await ensureRunChunks(t.db, workers[0]!, run.id, () => planChunks(8, 1, 2));
        expect(await pgOpenJobs(run.id)).toBe(planChunks(8, 1, 2).length);
      }
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  });

  const pgOpenJobs = (runId: number) => pgTransaction(t.db, (query) => queue.openJobs(query, runId));
});
