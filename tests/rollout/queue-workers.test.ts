// PostgreSQL's queue: one run shared by several worker processes (`worker`, as on several machines) against the test
// model server. The result rows are the truth: each (item, trial) once, the order of completion without gap or repeat,
// the counters the sums of the rows, whatever dies; a cancel stops every worker's items within seconds.
import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getRun, requestCancel } from "@/lib/db";
import { INITIAL_SKILL, runCli, spawnCli } from "../support/cli";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { makeItems } from "../support/rollout-fixtures";
import { createTestDb, TEST_ENGINE, type TestDatabase } from "../support/test-db";

const TTL_S = 5;
let t: TestDatabase;
let server: FakeOpenAIServer;
let workers: ChildProcess[] = [];

beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer({ latencyMs: 1, recordRequests: false });
});
afterEach(async () => {
  await Promise.all(workers.map(stopWorker));
  workers = [];
  await server.close();
  await t.close();
});

function startWorker(name: string, concurrency: number, options: { ttlS?: number } = {}): ChildProcess {
  const child = spawnCli(["worker", "--concurrency", String(concurrency), "--name", name], {
    databaseUrl: t.url,
    env: { SKILLBOARD_WORKER_TTL_S: String(options.ttlS ?? TTL_S) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  Object.assign(child, { log: () => log });
  workers.push(child);
  return child;
}

function stopWorker(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

async function detachedRun(items: number, concurrency: number): Promise<number> {
  const file = join(t.dir, "items.jsonl");
  writeFileSync(file, makeItems(items).map((item) => JSON.stringify(item)).join("\n"));
  const queued = await runCli(["run", "--dataset", file, "--skill", INITIAL_SKILL, "--base-url", server.baseURL, "--concurrency", String(concurrency), "--detach"], {
    databaseUrl: t.url,
  });
  expect(queued.code, queued.stderr).toBe(0);
  const { run_id: runId } = JSON.parse(queued.stdout) as { run_id: number };
  expect((await getRun(t.db, runId)).status).toBe("queued");
  return runId;
}

/** Polls the run until `done` says so; meanwhile checks the bound on its concurrency across workers. */
async function watchRun(runId: number, concurrency: number, done: (run: Awaited<ReturnType<typeof getRun>>) => boolean, timeoutMs: number) {
  const seen = new Set<string>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await getRun(t.db, runId);
    const rows = await t.db.runWorker.findMany({ where: { runId } });
    for (const row of rows) seen.add(row.name);
    expect(rows.reduce((sum, row) => sum + row.slots, 0)).toBeLessThanOrEqual(concurrency);
    expect(run.inFlight).toBeLessThanOrEqual(concurrency);
    if (done(run)) return { run, workersSeen: seen };
    if (Date.now() > deadline) throw new Error(`run ${runId} did not get there in ${timeoutMs} ms: ${run.status}, ${run.nDone}/${run.itemsTotal}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function expectRowsAreTheTruth(runId: number, items: number) {
  const rows = await t.db.$queryRawUnsafe<{ n: number; pairs: number; minSeq: number; maxSeq: number; seqs: number; em: number; f1: number; errors: number; tokens: number }[]>(
    `SELECT COUNT(*)::int AS n, COUNT(DISTINCT ("itemId", "trial"))::int AS pairs, MIN("seq")::int AS "minSeq", MAX("seq")::int AS "maxSeq",
       COUNT(DISTINCT "seq")::int AS seqs, SUM("em")::float AS em, SUM("f1")::float AS f1,
       SUM(CASE WHEN "status" = 'error' THEN 1 ELSE 0 END)::int AS errors, SUM("promptTokens" + "completionTokens")::int AS tokens
     FROM "RunResult" WHERE "runId" = $1`,
    runId,
  );
  const sums = rows[0]!;
  expect(sums).toMatchObject({ n: items, pairs: items, minSeq: 1, maxSeq: items, seqs: items });
  const run = await getRun(t.db, runId);
  expect(run.status).toBe("completed");
  expect(run.nDone).toBe(items);
  expect(run.emSum).toBeCloseTo(sums.em, 6);
  expect(run.f1Sum).toBeCloseTo(sums.f1, 6);
  expect(run.nErrors).toBe(sums.errors);
  expect(run.promptTokens + run.completionTokens).toBe(sums.tokens);
  // The live curve's last point is the run's sums: the running sums were continued from the database, not per worker.
  const last = await t.db.runResult.findFirstOrThrow({ where: { runId, seq: items } });
  expect(last.cumEm).toBeCloseTo(run.emSum, 6);
  expect(await t.db.runWorker.count({ where: { runId } })).toBe(0);
}

describe.runIf(TEST_ENGINE === "postgresql")("a run shared by worker processes on PostgreSQL's queue", () => {
  const ITEMS = 20_000;
  const CONCURRENCY = 150;

  it("stores exactly one result per item when three workers share a 20,000-item run", async () => {
    const runId = await detachedRun(ITEMS, CONCURRENCY);
    const started = Date.now();
    for (const name of ["w1", "w2", "w3"]) startWorker(name, 50);
    const { workersSeen } = await watchRun(runId, CONCURRENCY, (run) => run.status === "completed", 100_000);
    process.stderr.write(`queue-workers: 20,000 items, 3 workers: ${((ITEMS * 1000) / (Date.now() - started)).toFixed(0)} items/s\n`);
    expect([...workersSeen].sort()).toEqual(["w1", "w2", "w3"]);
    await expectRowsAreTheTruth(runId, ITEMS);
    // SIGTERM: each worker stops cleanly.
    expect(await Promise.all(workers.map(stopWorker))).toEqual([0, 0, 0]);
  }, 120_000);

  it("loses and repeats nothing when a worker is killed with SIGKILL twice mid-run and started again", async () => {
    const runId = await detachedRun(ITEMS, CONCURRENCY);
    startWorker("w1", 50);
    startWorker("w2", 50);
    let victim = startWorker("w3", 50);
    for (const mark of [4_000, 10_000]) {
      await watchRun(runId, CONCURRENCY, (run) => run.nDone >= mark, 100_000);
      victim.kill("SIGKILL");
      await new Promise((resolve) => victim.once("exit", resolve));
      victim = startWorker("w3", 50);
    }
    await watchRun(runId, CONCURRENCY, (run) => run.status === "completed", 100_000);
    await expectRowsAreTheTruth(runId, ITEMS);
  }, 150_000);

  it("gives a stopped worker's chunks back at once: SIGTERM lets its items in flight finish and the others complete the run", async () => {
    server.setOptions({ latencyMs: 20 });
    const runId = await detachedRun(3_000, 40);
    const stopped = startWorker("w1", 20, { ttlS: 120 });
    startWorker("w2", 20, { ttlS: 120 });
    await watchRun(runId, 40, (run) => run.nDone >= 600, 60_000);
    const since = Date.now();
    expect(await stopWorker(stopped)).toBe(0);
    // Nothing waits for the TTL (2 minutes here): its unfinished chunks went back as it stopped.
    await watchRun(runId, 40, (run) => run.status === "completed", 60_000);
    expect(Date.now() - since).toBeLessThan(60_000);
    await expectRowsAreTheTruth(runId, 3_000);
    expect((stopped as ChildProcess & { log(): string }).log()).toMatch(/stopping \(SIGTERM\)/);
  }, 90_000);

  it("stops every worker's items within a few seconds of a cancel from the dashboard", async () => {
    server.setOptions({ latencyMs: 300 });
    const runId = await detachedRun(600, 30);
    for (const name of ["w1", "w2", "w3"]) startWorker(name, 10);
    const { workersSeen } = await watchRun(runId, 30, (run) => run.nDone >= 60, 60_000);
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
