// PostgreSQL's queue: one run shared by several worker processes (`worker`, as on several machines) against the test
// model server. The result rows are the truth: each (item, trial) once, the order of completion without gap or repeat,
// the counters the sums of the rows, whatever dies; a cancel stops every worker's items within seconds.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getRun, requestCancel } from "@/lib/db";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { pollUntil } from "../support/poll";
import { detachedRun, expectRowsAreTheTruth, stopWorker, watchRun, workerPool } from "../support/queue-run";
import { createTestDb, TEST_ENGINE, type TestDatabase } from "../support/test-db";

const TTL_S = 5;
let t: TestDatabase;
let server: FakeOpenAIServer;
const workers = workerPool(() => t.url, TTL_S);

beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer({ latencyMs: 1, recordRequests: false });
});
afterEach(async () => {
  await workers.stopAll();
  await server.close();
  await t.close();
});

describe.runIf(TEST_ENGINE === "postgresql")("a run shared by worker processes on PostgreSQL's queue", () => {
  const ITEMS = 20_000;
  const CONCURRENCY = 150;

  it("stores exactly one result per item when three workers share a 20,000-item run", async () => {
    const runId = await detachedRun(t, server.baseURL, ITEMS, CONCURRENCY);
    const started = Date.now();
    const three = ["w1", "w2", "w3"].map((name) => workers.start(name, 50));
    const { workersSeen } = await watchRun(t.db, runId, CONCURRENCY, (run) => run.status === "completed", 100_000);
    process.stderr.write(`queue-workers: 20,000 items, 3 workers: ${((ITEMS * 1000) / (Date.now() - started)).toFixed(0)} items/s\n`);
    expect([...workersSeen].sort()).toEqual(["w1", "w2", "w3"]);
    await expectRowsAreTheTruth(t.db, runId, ITEMS);
    // SIGTERM: each worker stops cleanly.
    expect(await Promise.all(three.map(stopWorker))).toEqual([0, 0, 0]);
  }, 120_000);

  it("loses and repeats nothing when a worker is killed with SIGKILL twice mid-run and started again", async () => {
    const runId = await detachedRun(t, server.baseURL, ITEMS, CONCURRENCY);
    workers.start("w1", 50);
    workers.start("w2", 50);
    let victim = workers.start("w3", 50);
    for (const mark of [4_000, 10_000]) {
      await watchRun(t.db, runId, CONCURRENCY, (run) => run.nDone >= mark, 100_000);
      victim.kill("SIGKILL");
      await new Promise((resolve) => victim.once("exit", resolve));
      victim = workers.start("w3", 50);
    }
    await watchRun(t.db, runId, CONCURRENCY, (run) => run.status === "completed", 100_000);
    await expectRowsAreTheTruth(t.db, runId, ITEMS);
  }, 150_000);

  it("gives a stopped worker's chunks back at once: SIGTERM lets its items in flight finish and the others complete the run", async () => {
    server.setOptions({ latencyMs: 20 });
    const runId = await detachedRun(t, server.baseURL, 3_000, 40);
    const stopped = workers.start("w1", 20, { ttlS: 120 });
    workers.start("w2", 20, { ttlS: 120 });
    await watchRun(t.db, runId, 40, (run) => run.nDone >= 600, 60_000);
    const since = Date.now();
    expect(await stopWorker(stopped)).toBe(0);
    // Nothing waits for the TTL (2 minutes here): its unfinished chunks went back as it stopped.
    await watchRun(t.db, runId, 40, (run) => run.status === "completed", 60_000);
    expect(Date.now() - since).toBeLessThan(60_000);
    await expectRowsAreTheTruth(t.db, runId, 3_000);
    expect(stopped.log()).toMatch(/stopping \(SIGTERM\)/);
  }, 90_000);

  it("aborts the items still in flight once its drain time (--drain-seconds) is over, and another worker completes the run", async () => {
    // Every call made before the SIGTERM is held (a slow model); those made after it are answered at once.
    let holding = true;
    let releaseHeld = () => undefined as void;
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    server.setOptions({ faults: { pick: () => (holding ? { kind: "hold", until: held } : undefined) } });
    try {
      const runId = await detachedRun(t, server.baseURL, 200, 8);
      // The option wins over the environment (30 s here; 20 s without either).
      const slow = workers.start("slow", 8, { ttlS: 120, args: ["--drain-seconds", "1"], env: { SKILLBOARD_WORKER_DRAIN_S: "30" } });
      expect((await pollUntil(async () => server.stats().inFlight, (n) => n === 8, 60_000))).toBe(8);
      holding = false;
      const since = Date.now();
      expect(await stopWorker(slow)).toBe(0);
      const drainMs = Date.now() - since;
      process.stderr.write(`queue-workers: a worker with --drain-seconds 1 exited ${drainMs} ms after SIGTERM\n`);
      expect(drainMs).toBeGreaterThanOrEqual(1_000);
      expect(drainMs).toBeLessThan(8_000);
      expect(slow.log()).toContain("the drain time (1 s) is over: the items still in flight are aborted");
      // Its calls were aborted, not left to finish; nothing of the run is held any more (120 s TTL: no wait for it).
      expect(await pollUntil(async () => server.stats().inFlight, (n) => n === 0, 5_000)).toBe(0);
      expect((await getRun(t.db, runId)).nDone).toBe(0);
      workers.start("w2", 8);
      await watchRun(t.db, runId, 8, (run) => run.status === "completed", 60_000);
      await expectRowsAreTheTruth(t.db, runId, 200);
    } finally {
      releaseHeld();
    }
  }, 90_000);

  it("stops every worker's items within a few seconds of a cancel from the dashboard", async () => {
    server.setOptions({ latencyMs: 300 });
    const runId = await detachedRun(t, server.baseURL, 600, 30);
    for (const name of ["w1", "w2", "w3"]) workers.start(name, 10);
    const { workersSeen } = await watchRun(t.db, runId, 30, (run) => run.nDone >= 60, 60_000);
    expect(workersSeen.size).toBeGreaterThanOrEqual(2);
    // What the run page's Cancel button calls (app/runs/actions.ts).
    await requestCancel(t.db, runId);
    const cancelledAt = Date.now();
    // Stopped: no call to the model in flight, none started since, and the workers left the run.
    const snapshot = async () => ({ requests: server.stats().requests, results: await t.db.runResult.count({ where: { runId } }) });
    let last = await snapshot();
    while (server.stats().inFlight > 0 || (await t.db.runWorker.count({ where: { runId } })) > 0) {
      expect(Date.now() - cancelledAt).toBeLessThan(4_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = await snapshot();
    }
    const stoppedMs = Date.now() - cancelledAt;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await snapshot()).toEqual(last);
    const run = await getRun(t.db, runId);
    expect(run.status).toBe("cancelled");
    expect(run.nDone).toBe(last.results);
    expect(run.nDone).toBeLessThan(600);
    process.stderr.write(`queue-workers: every worker's items stopped ${stoppedMs} ms after the cancel\n`);
  }, 90_000);
});
