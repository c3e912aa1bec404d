/**
 * A run executed through PostgreSQL's queue (run-queue.ts), as the database keeps it: the run's status, and the workers
 * taking part in it (RunWorker), each holding a share of the run's concurrency (slots).
 *
 * Why slots in the database: a run's concurrency is a bound on its items in flight across all workers (a provider's
 * rate limit, an agent's sandboxes). A worker joining a run takes min(what it can run, what is left) under the run's
 * row lock, so the sum over live workers never exceeds it, whatever the number of machines; a worker that died stops
 * counting once its heartbeat is older than the TTL. (Dividing the concurrency by the number of workers instead would
 * need every worker to know how many there are, and be wrong while one starts or dies.)
 */
import { hostname } from "node:os";
import type { Db } from "./client";
import { pgTransaction, type PgQuery } from "./postgres-client";
import type { ChunkData, RunQueue } from "./run-queue";
import { redactSecrets } from "../text/redact-secrets";
import { leaseIsAlive } from "./run-lease";

/** Run.workerId of a run the queue's workers execute (no single process holds it). */
export const QUEUE_WORKER_ID = "queue";

export interface QueueWorkerIdentity {
  id: string;
  name: string;
  host: string;
}

export function queueWorkerIdentity(id: string, name: string): QueueWorkerIdentity {
  return { id, name, host: hostname() };
}

interface LockedRun {
  status: string;
  workerId: string | null;
  nDone: number;
  itemsTotal: number;
  configJson: string;
  beatMs: number | null;
}

async function lockRun(query: PgQuery, runId: number): Promise<LockedRun | null> {
  const [row] = await query(
    `SELECT "status", "workerId", "nDone", "itemsTotal", "configJson", EXTRACT(EPOCH FROM "heartbeatAt") * 1000 AS "beatMs" FROM "Run" WHERE "id" = $1 FOR UPDATE`,
    [runId],
  );
  return (row as unknown as LockedRun | undefined) ?? null;
}

const iso = (date: Date) => date.toISOString();

/**
 * A "running" run that no live process executes, left under a process's lease (run-lease.ts: a version before the
 * queue, or any process that died holding it, or released it): the queue's workers take it over. The lease's own rule
 * says whether it is alive (the process table on its machine, else the heartbeat's age), as when a process claims a run.
 */
function leftByDeadProcess(run: { status: string; workerId: string | null; heartbeatAt: Date | null }): boolean {
  if (run.status !== "running" || run.workerId === QUEUE_WORKER_ID) return false;
  return run.workerId === null || !leaseIsAlive(run.workerId, run.heartbeatAt);
}

export interface QueueRunListing {
  id: number;
  status: string;
  /** QUEUE_WORKER_ID, or the dead process lease a worker takes the run over from (null for a queued run). */
  workerId: string | null;
  resumedAt: Date | null;
}

/**
 * The runs the queue's workers execute: queued ones, the queue's running ones, and running ones a dead process left
 * (ensureRunChunks turns them into the queue's). Not an optimisation's runs (it executes them itself), nor a run a live
 * process holds through its lease.
 */
export async function listQueueRuns(db: Db): Promise<QueueRunListing[]> {
  const runs = await db.run.findMany({
    where: { status: { in: ["queued", "running"] }, optimizationRuns: { none: {} }, source: "executed" },
    orderBy: { id: "asc" },
    select: { id: true, status: true, workerId: true, heartbeatAt: true, resumedAt: true },
  });
  return runs
    .filter((run) => run.status === "queued" || run.workerId === QUEUE_WORKER_ID || leftByDeadProcess(run))
    .map(({ id, status, workerId, resumedAt }) => ({ id, status, workerId, resumedAt }));
}

/**
 * Makes sure the run has jobs for its missing results: a queued run (new, or resumed), or a running one a dead process
 * left under its lease, gets its chunks and becomes the queue's "running" run, in one transaction (its stored results
 * stay: a chunk skips them); a queue's run whose jobs are all gone with results still missing (a process died between
 * steps) gets them again. Any worker may call this; the run's row lock makes one of them do it. Says what it did.
 */
export async function ensureRunChunks(db: Db, queue: RunQueue, runId: number, plan: () => ChunkData[]): Promise<"enqueued" | "taken over" | "re-enqueued" | null> {
  await queue.ensureQueue(runId);
  return pgTransaction(db, async (query) => {
    const run = await lockRun(query, runId);
    if (!run) return null;
    const heartbeatAt = run.beatMs === null ? null : new Date(Number(run.beatMs));
    const takenOver = leftByDeadProcess({ ...run, heartbeatAt });
    if (run.status === "queued" || takenOver) {
      await queue.dropOpenJobs(query, runId);
      await queue.enqueue(query, runId, plan());
      const now = iso(new Date());
      await query(
        `UPDATE "Run" SET "status" = 'running', "workerId" = $2, "heartbeatAt" = $3, "startedAt" = COALESCE("startedAt", $3::timestamp),
         "resumedAt" = $3, "resumedDone" = "nDone", "finishedAt" = NULL, "error" = NULL, "cancelRequestedAt" = NULL,
         "inFlight" = 0, "retryingNow" = 0, "rateLimitedNow" = 0 WHERE "id" = $1`,
        [runId, QUEUE_WORKER_ID, now],
      );
      await query(`DELETE FROM "RunWorker" WHERE "runId" = $1`, [runId]);
      return takenOver ? "taken over" : "enqueued";
    }
    if (run.status === "running" && run.workerId === QUEUE_WORKER_ID && run.nDone < run.itemsTotal && (await queue.openJobs(query, runId)) === 0) {
      await queue.enqueue(query, runId, plan());
      return "re-enqueued";
    }
    return null;
  });
}

/** Joins the run with up to `wanted` of its slots; 0 when the run is not running or its concurrency is taken. */
export async function joinQueueRun(db: Db, queue: RunQueue, runId: number, worker: QueueWorkerIdentity, wanted: number): Promise<number> {
  const { ttlSeconds } = queue;
  return pgTransaction(db, async (query) => {
    const run = await lockRun(query, runId);
    if (!run || run.status !== "running" || run.workerId !== QUEUE_WORKER_ID) return 0;
    const now = new Date();
    // Workers that are gone stop counting: silent for the TTL, or (on this machine) a process that no longer exists.
    const rows = await query(`SELECT "workerId", EXTRACT(EPOCH FROM "heartbeatAt") * 1000 AS "beatMs" FROM "RunWorker" WHERE "runId" = $1`, [runId]);
    const gone = rows
      .filter((row) => row.workerId === worker.id || !leaseIsAlive(String(row.workerId), new Date(Number(row.beatMs)), ttlSeconds * 1000))
      .map((row) => String(row.workerId));
    if (gone.length > 0) await query(`DELETE FROM "RunWorker" WHERE "runId" = $1 AND "workerId" = ANY($2::text[])`, [runId, gone]);
    // Nobody else on the run: whatever chunks are held, their holders are gone, so they are given back now rather than
    // after the TTL (a killed CLI run resumed at once). Under the run's row lock, so no worker joins meanwhile.
    if (rows.length === gone.length) await queue.releaseHeld(query, runId);
    const [taken] = await query(`SELECT COALESCE(SUM("slots"), 0)::int AS n FROM "RunWorker" WHERE "runId" = $1`, [runId]);
    const concurrency = Number((JSON.parse(run.configJson) as { settings?: { concurrency?: number } }).settings?.concurrency ?? 1);
    const slots = Math.max(0, Math.min(wanted, concurrency - Number(taken?.n ?? 0)));
    if (slots === 0) return 0;
    await query(
      `INSERT INTO "RunWorker" ("runId", "workerId", "name", "host", "slots", "joinedAt", "heartbeatAt") VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [runId, worker.id, worker.name, worker.host, slots, iso(now)],
    );
    return slots;
  });
}

export interface QueueWorkerGauges {
  inFlight: number;
  retrying: number;
  rateLimited: number;
}

/**
 * A worker's heartbeat on a run: its gauges, and the run's gauges as the sums over its live workers (what the live
 * view shows). Returns the run's status (a cancel, a pause or another worker finishing it stops this one).
 */
export async function heartbeatQueueRun(db: Db, runId: number, workerId: string, gauges: QueueWorkerGauges): Promise<string | null> {
  return pgTransaction(db, async (query) => {
    const run = await lockRun(query, runId);
    if (!run) return null;
    const now = iso(new Date());
    await query(`UPDATE "RunWorker" SET "inFlight" = $3, "retrying" = $4, "rateLimited" = $5, "heartbeatAt" = $6 WHERE "runId" = $1 AND "workerId" = $2`, [
      runId, workerId, gauges.inFlight, gauges.retrying, gauges.rateLimited, now,
    ]);
    if (run.status === "running") await updateRunGauges(query, runId, now);
    return run.status;
  });
}

async function updateRunGauges(query: PgQuery, runId: number, now: string): Promise<void> {
  await query(
    `UPDATE "Run" SET "heartbeatAt" = $2,
       "inFlight" = (SELECT COALESCE(SUM("inFlight"), 0) FROM "RunWorker" WHERE "runId" = $1),
       "retryingNow" = (SELECT COALESCE(SUM("retrying"), 0) FROM "RunWorker" WHERE "runId" = $1),
       "rateLimitedNow" = (SELECT COALESCE(SUM("rateLimited"), 0) FROM "RunWorker" WHERE "runId" = $1)
     WHERE "id" = $1`,
    [runId, now],
  );
}

/** The worker leaves the run (its slots are free for others). */
export async function leaveQueueRun(db: Db, runId: number, workerId: string): Promise<void> {
  await pgTransaction(db, async (query) => {
    const run = await lockRun(query, runId);
    await query(`DELETE FROM "RunWorker" WHERE "runId" = $1 AND "workerId" = $2`, [runId, workerId]);
    if (run?.status === "running") await updateRunGauges(query, runId, iso(new Date()));
  });
}

/**
 * Ends the run if it is done: every result stored (then `judge` says completed, or failed: no item succeeded), or `end`. Whichever worker sees it first ends it; the others find it ended.
 */
export async function finishQueueRun(
  db: Db,
  runId: number,
  judge: (run: { nDone: number; nAgentOk: number }) => Promise<string | null>,
  /** Ends it whatever is stored: a model error that retrying cannot fix (failed), or a pause (interrupted). */
  end?: { status: "failed" | "interrupted"; error?: string },
): Promise<string | null> {
  return pgTransaction(db, async (query) => {
    const [run] = await query(
      `SELECT "status", "workerId", "nDone", "itemsTotal", "nAgentOk", EXTRACT(EPOCH FROM "resumedAt") * 1000 AS "resumedMs"
       FROM "Run" WHERE "id" = $1 FOR UPDATE`,
      [runId],
    );
    if (!run || run.status !== "running" || run.workerId !== QUEUE_WORKER_ID) return (run?.status as string | undefined) ?? null;
    if (!end && Number(run.nDone) < Number(run.itemsTotal)) return "running";
    const error = end ? (end.error ?? null) : await judge({ nDone: Number(run.nDone), nAgentOk: Number(run.nAgentOk) });
    const status = end?.status ?? (error ? "failed" : "completed");
    const now = new Date();
    const activeMs = run.resumedMs == null ? 0 : Math.max(0, now.getTime() - Number(run.resumedMs));
    await query(
      `UPDATE "Run" SET "status" = $2, "error" = $3, "finishedAt" = $4, "workerId" = NULL, "inFlight" = 0, "retryingNow" = 0,
       "rateLimitedNow" = 0, "activeMs" = "activeMs" + $5 WHERE "id" = $1`,
      [runId, status, error ? redactSecrets(error) : null, iso(now), activeMs],
    );
    await query(`DELETE FROM "RunWorker" WHERE "runId" = $1`, [runId]);
    return status;
  });
}

/** The workers on the run now (the live view's table). */
export function listRunWorkers(db: Db, runId: number) {
  return db.runWorker.findMany({ where: { runId }, orderBy: { joinedAt: "asc" } });
}
