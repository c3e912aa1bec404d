/**
 * A run on PostgreSQL's queue, as the tests of several worker processes drive it: `worker` processes started and
 * stopped (tests/rollout/queue-*.test.ts, tests/app/dashboard-killed.server.test.ts, run-workers.browser.test.ts), a run queued with
 * `run --detach`, a watch that checks the run's concurrency bound across workers while it goes, and the check that the
 * result rows are the truth (each (item, trial) once, seq 1..n without gap or repeat, the counters their sums).
 */
import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { getRun, type Db } from "@/lib/db";
import { INITIAL_SKILL, runCli, spawnCli } from "./cli";
import { makeItems } from "./rollout-fixtures";

/** The shared database: its URL for the processes, a client for the test's checks, a folder for the dataset file. */
export interface QueueDatabase {
  db: Db;
  url: string;
  dir: string;
}

export type WorkerProcess = ChildProcess & { log(): string };

export interface WorkerStartOptions {
  /** The chunk lease's TTL (SKILLBOARD_WORKER_TTL_S); the pool's default otherwise. */
  ttlS?: number;
  /** More `worker` options (e.g. --drain-seconds). */
  args?: string[];
  env?: Record<string, string>;
}

/** The `worker` processes a test started; `stopAll` ends those still running (in the test's afterEach) with their exit codes. */
export interface WorkerPool {
  start(name: string, concurrency: number, options?: WorkerStartOptions): WorkerProcess;
  stopAll(): Promise<(number | null)[]>;
}

/** `worker --concurrency N --name NAME [args]` processes on the database at `databaseUrl()`; each one's stderr is kept. */
export function workerPool(databaseUrl: () => string, defaultTtlS: number, dataDir?: () => string): WorkerPool {
  let workers: WorkerProcess[] = [];
  return {
    start(name, concurrency, options = {}) {
      const child = spawnCli(["worker", "--concurrency", String(concurrency), "--name", name, ...(options.args ?? [])], {
        databaseUrl: databaseUrl(),
        env: {
          SKILLBOARD_WORKER_TTL_S: String(options.ttlS ?? defaultTtlS),
          ...(dataDir ? { SKILLBOARD_DATA_DIR: dataDir() } : {}),
          ...options.env,
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let log = "";
      child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
      const worker = Object.assign(child, { log: () => log });
      workers.push(worker);
      return worker;
    },
    async stopAll() {
      const codes = await Promise.all(workers.map(stopWorker));
      workers = [];
      return codes;
    },
  };
}

/** SIGTERM, and its exit code once it has exited (at once if it already had). */
export function stopWorker(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

/**
 * Queues a run of `items` items for the workers (`run --detach`) against the model server at `modelURL`. With a worker
 * already live (`workerLive`: the dashboard's), it may have taken the run by the time the CLI has exited.
 */
export async function detachedRun(t: QueueDatabase, modelURL: string, items: number, concurrency: number, { workerLive = false } = {}): Promise<number> {
  const file = join(t.dir, `items-${items}-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, makeItems(items).map((item) => JSON.stringify(item)).join("\n"));
  const queued = await runCli(["run", "--dataset", file, "--skill", INITIAL_SKILL, "--base-url", modelURL, "--concurrency", String(concurrency), "--detach"], {
    databaseUrl: t.url,
  });
  expect(queued.code, queued.stderr).toBe(0);
  const { run_id: runId } = JSON.parse(queued.stdout) as { run_id: number };
  expect((await getRun(t.db, runId)).status).toSatisfy((status: string) => status === "queued" || (workerLive && status === "running"));
  return runId;
}

/** Polls the run until `done` says so; meanwhile checks the bound on its concurrency across workers. */
export async function watchRun(db: Db, runId: number, concurrency: number, done: (run: Awaited<ReturnType<typeof getRun>>) => boolean, timeoutMs: number) {
  const seen = new Set<string>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await getRun(db, runId);
    const rows = await db.runWorker.findMany({ where: { runId } });
    for (const row of rows) seen.add(row.name);
    expect(rows.reduce((sum, row) => sum + row.slots, 0)).toBeLessThanOrEqual(concurrency);
    expect(run.inFlight).toBeLessThanOrEqual(concurrency);
    if (done(run)) return { run, workersSeen: seen };
    if (Date.now() > deadline) throw new Error(`run ${runId} did not get there in ${timeoutMs} ms: ${run.status}, ${run.nDone}/${run.itemsTotal}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function expectRowsAreTheTruth(db: Db, runId: number, items: number) {
  const rows = await db.$queryRawUnsafe<{ n: number; pairs: number; minSeq: number; maxSeq: number; seqs: number; em: number; f1: number; errors: number; tokens: number }[]>(
    `SELECT COUNT(*)::int AS n, COUNT(DISTINCT ("itemId", "trial"))::int AS pairs, MIN("seq")::int AS "minSeq", MAX("seq")::int AS "maxSeq",
       COUNT(DISTINCT "seq")::int AS seqs, SUM("em")::float AS em, SUM("f1")::float AS f1,
       SUM(CASE WHEN "status" = 'error' THEN 1 ELSE 0 END)::int AS errors, SUM("promptTokens" + "completionTokens")::int AS tokens
     FROM "RunResult" WHERE "runId" = $1`,
    runId,
  );
  const sums = rows[0]!;
  expect(sums).toMatchObject({ n: items, pairs: items, minSeq: 1, maxSeq: items, seqs: items });
  const run = await getRun(db, runId);
  expect(run.status).toBe("completed");
  expect(run.nDone).toBe(items);
  expect(run.emSum).toBeCloseTo(sums.em, 6);
  expect(run.f1Sum).toBeCloseTo(sums.f1, 6);
  expect(run.nErrors).toBe(sums.errors);
  expect(run.promptTokens + run.completionTokens).toBe(sums.tokens);
  // The live curve's last point is the run's sums: the running sums were continued from the database, not per worker.
  const last = await db.runResult.findFirstOrThrow({ where: { runId, seq: items } });
  expect(last.cumEm).toBeCloseTo(run.emSum, 6);
  expect(await db.runWorker.count({ where: { runId } })).toBe(0);
}
