/**
 * PostgreSQL's job queue for runs: pg-boss 10.4.2 (the newest whose declared engines take our Node 20), in its own
 * schema `pgboss` of the same database. A run becomes one queue, `run-<id>`, of jobs that each name a chunk of its
 * (item, trial) pairs; a worker claims a chunk, keeps it alive while it works, and completes it once every result of the
 * chunk is stored. The result rows stay the only truth about what is done (stored-results.ts): a chunk delivered twice
 * costs work, never a duplicate.
 *
 * Keeping a chunk alive: pg-boss 10 has no heartbeat (a job expires `expireInSeconds` after it started, then goes back
 * to the queue as a retry). So a job's expiry is a lease here: `expireInSeconds` is the lease's TTL
 * (SKILLBOARD_WORKER_TTL_S, 30 s by default), and the holder renews it by moving the job's start forward
 * (keepAlive). A worker killed outright stops renewing; the next reclaim (any live worker, every few seconds) after the
 * TTL puts its chunks back. That and the transactional enqueue are the two statements here on pg-boss's own table.
 */
import { loadPgBoss } from "./postgres-packages";
import type { Db } from "./client";
import { pgTransaction, postgresUrlOf, type PgQuery } from "./postgres-client";

export const QUEUE_SCHEMA = "pgboss";

/** One job: the pairs of `trial` whose positions in the run's selection are from..to-1. */
export interface ChunkData {
  trial: number;
  from: number;
  to: number;
}

export interface Chunk extends ChunkData {
  jobId: string;
}

/** How long a chunk's holder may go silent before its chunk is given to another worker. */
export function workerTtlSeconds(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const value = Number(env.SKILLBOARD_WORKER_TTL_S ?? 30);
  if (!Number.isFinite(value) || value < 2) throw new Error(`SKILLBOARD_WORKER_TTL_S must be a number of seconds >= 2, got "${env.SKILLBOARD_WORKER_TTL_S}"`);
  return Math.round(value);
}

export const queueName = (runId: number) => `run-${runId}`;

export interface RunQueue {
  readonly ttlSeconds: number;
  /** The run's queue exists (idempotent). */
  ensureQueue(runId: number): Promise<void>;
  /** Adds jobs inside a transaction of ours (pgTransaction), so they exist exactly when its other writes do. */
  enqueue(query: PgQuery, runId: number, chunks: readonly ChunkData[]): Promise<void>;
  /** Jobs of the run not finished (waiting, to retry, or held), counted in the same transaction. */
  openJobs(query: PgQuery, runId: number): Promise<number>;
  /** Drops the run's unfinished jobs (a resumed run is enqueued afresh from its missing results). */
  dropOpenJobs(query: PgQuery, runId: number): Promise<void>;
  /** Gives back every chunk of the run held now (their holders are known to be gone), in that transaction. */
  releaseHeld(query: PgQuery, runId: number): Promise<void>;
  /** Claims the next chunk of the run, or null when none is waiting. */
  fetch(runId: number): Promise<Chunk | null>;
  complete(runId: number, jobIds: readonly string[]): Promise<void>;
  /** Gives chunks back at once (a worker stopping): they are claimable again now. */
  release(runId: number, jobIds: readonly string[]): Promise<void>;
  /** Renews the lease of chunks this worker holds. */
  keepAlive(runId: number, jobIds: readonly string[]): Promise<void>;
  /** Puts back the chunks whose holder stopped renewing them. */
  reclaimExpired(): Promise<void>;
  stop(): Promise<void>;
}

/** The advisory lock under which a run's queue is created (the migrations and transactions have locks of their own). */
const QUEUE_CREATION_LOCK = 7_265_146_703;

export async function openRunQueue(db: Db, options: { ttlSeconds?: number } = {}): Promise<RunQueue> {
  const ttlSeconds = options.ttlSeconds ?? workerTtlSeconds();
  const boss = new (loadPgBoss())({
    connectionString: postgresUrlOf(db),
    schema: QUEUE_SCHEMA,
    max: 3,
    // Expiry is checked by our reclaimExpired (every worker, every few seconds), not pg-boss's two-minute maintenance.
    supervise: false,
    schedule: false,
    application_name: "skillboard-worker",
  });
  boss.on("error", (error: Error) => process.stderr.write(`skillboard: queue: ${error.message}\n`));
  // Creates or upgrades the pgboss schema (pg-boss takes its own advisory lock, so workers may start at once).
  await boss.start();
  const table = `${QUEUE_SCHEMA}.job`;
  return {
    ttlSeconds,
    async ensureQueue(runId) {
      if (await boss.getQueue(queueName(runId))) return;
      // One process at a time creates a queue: pg-boss's createQueue (a partition of its job table) run by several
      // workers at once for a new run ended in "deadlock detected" for some of them. Held in a transaction of ours
      // while pg-boss works on its own connection; the others then find the queue made.
      await pgTransaction(db, async (query) => {
        await query("SELECT pg_advisory_xact_lock($1)", [QUEUE_CREATION_LOCK]);
        if (await boss.getQueue(queueName(runId))) return;
        // A chunk may come back any number of times (each worker that took it died); each time it is claimable at once.
        await boss.createQueue(queueName(runId), { name: queueName(runId), retryLimit: 1_000_000, retryDelay: 0, expireInSeconds: ttlSeconds });
      });
    },
    async enqueue(query, runId, chunks) {
      if (chunks.length === 0) return;
      const jobs = chunks.map((data) => ({ name: queueName(runId), data, retryLimit: 1_000_000, retryDelay: 0, expireInSeconds: ttlSeconds }));
      await boss.insert(jobs, { db: adapterOf(query) });
    },
    async openJobs(query, runId) {
      const [row] = await query(`SELECT COUNT(*)::int AS n FROM ${table} WHERE name = $1 AND state < 'completed'`, [queueName(runId)]);
      return Number(row?.n ?? 0);
    },
    async dropOpenJobs(query, runId) {
      await query(`DELETE FROM ${table} WHERE name = $1 AND state < 'completed'`, [queueName(runId)]);
    },
    async releaseHeld(query, runId) {
      const held = await query(`SELECT id FROM ${table} WHERE name = $1 AND state = 'active'`, [queueName(runId)]);
      if (held.length === 0) return;
      await boss.fail(queueName(runId), held.map((row) => String(row.id)), { db: adapterOf(query) });
    },
    async fetch(runId) {
      const [job] = await boss.fetch<ChunkData>(queueName(runId), { batchSize: 1 });
      return job ? { jobId: job.id, ...job.data } : null;
    },
    async complete(runId, jobIds) {
      if (jobIds.length > 0) await boss.complete(queueName(runId), [...jobIds]);
    },
    async release(runId, jobIds) {
      if (jobIds.length > 0) await boss.fail(queueName(runId), [...jobIds]);
    },
    async keepAlive(runId, jobIds) {
      if (jobIds.length === 0) return;
      // Moving the start forward moves the expiry (started_on + expire_in) forward: see the top of this file.
      await boss.getDb().executeSql(`UPDATE ${table} SET started_on = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`, [
        queueName(runId),
        [...jobIds],
      ]);
    },
    reclaimExpired: () => boss.expire(),
    stop: () => boss.stop({ graceful: false, wait: true }),
  };
}

/** pg-boss's connection interface over a transaction of ours: its statements run inside that transaction. */
function adapterOf(query: PgQuery) {
  return { executeSql: async (sql: string, values: unknown[]) => ({ rows: await query(sql, values) }) };
}
