// PostgreSQL's queue in tests: `worker` processes (as on several machines) on a test database, a run queued for them
// with `run --detach`, a watch on its bound across workers, and the check that its result rows are the truth.
import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { getRun } from "@/lib/db";
import { INITIAL_SKILL, runCli, spawnCli } from "./cli";
import { makeItems } from "./rollout-fixtures";
import type { TestDatabase } from "./test-db";

export type WorkerProcess = ChildProcess & { log(): string };

/** The workers a test started, each stopped (SIGTERM) at the end. */
export class WorkerProcesses {
  readonly started: WorkerProcess[] = [];

  /** `worker --concurrency N --name NAME [args]`, with the chunk lease's TTL `ttlS` (5 s by default); its stderr is kept. */
  start(t: TestDatabase, name: string, concurrency: number, options: { ttlS?: number; args?: string[]; env?: Record<string, string> } = {}): WorkerProcess {
    const child = spawnCli(["worker", "--concurrency", String(concurrency), "--name", name, ...(options.args ?? [])], {
      databaseUrl: t.url,
      env: { SKILLBOARD_WORKER_TTL_S: String(options.ttlS ?? 5), SKILLBOARD_DATA_DIR: t.dir, ...options.env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    const worker = Object.assign(child, { log: () => log });
    this.started.push(worker);
    return worker;
  }

  async stopAll(): Promise<(number | null)[]> {
    const codes = await Promise.all(this.started.map(stopWorker));
    this.started.length = 0;
    return codes;
  }
}

/** SIGTERM, and its exit code once it exited (at once for one that already did). */
export function stopWorker(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

/** A run of `items` makeItems() items queued for the workers (`run --detach`), against the model server at `baseURL`. */
export async function detachedRun(t: TestDatabase, baseURL: string, items: number, concurrency: number): Promise<number> {
  const file = join(t.dir, `items-${items}-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, makeItems(items).map((item) => JSON.stringify(item)).join("\n"));
  const queued = await runCli(["run", "--dataset", file, "--skill", INITIAL_SKILL, "--base-url", baseURL, "--concurrency", String(concurrency), "--detach"], {
    databaseUrl: t.url,
  });
  expect(queued.code, queued.stderr).toBe(0);
  const { run_id: runId } = JSON.parse(queued.stdout) as { run_id: number };
  expect((await getRun(t.db, runId)).status).toBe("queued");
  return runId;
}

/** Polls the run until `done` says so; meanwhile checks the bound on its concurrency across workers. */
export async function watchRun(
  t: TestDatabase,
  runId: number,
  concurrency: number,
  done: (run: Awaited<ReturnType<typeof getRun>>) => boolean,
  timeoutMs: number,
) {
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

/** Completed with one result per (item, trial), the order of completion without gap or repeat, the counters the sums of the rows. */
export async function expectRowsAreTheTruth(t: TestDatabase, runId: number, items: number) {
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
