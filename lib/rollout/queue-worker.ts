import { ensureRunChunks, getRun, joinQueueRun, leaveQueueRun, listQueueRuns, newWorkerId, QUEUE_WORKER_ID, queueWorkerIdentity, type Db, type QueueRunListing } from "../db";
import { openRunQueue, type RunQueue } from "../db/run-queue";
import type { ChatModel } from "../model/types";
import type { ItemResult } from "../runs/types";
import { startPoller } from "../process/poller";
import { planRunPart, takePartInRun } from "./queue-participation";
import type { RunWorker } from "./run-worker";
import { StartBackoff } from "./start-backoff";

export interface QueueWorkerOptions {
  db: Db;
  /** --name: shown on the run page's workers table and recorded with agent items. */
  name?: string;
  /** Items in flight in this process, over all the runs it takes part in. */
  concurrency?: number;
  /** Only this run (a CLI `run` taking part in its own run). */
  runId?: number;
  pollMs?: number;
  /** SIGTERM: how long the items in flight may take to finish before they are aborted (`worker --drain-seconds`). */
  drainMs?: number;
  ttlSeconds?: number;
  model?: ChatModel;
  dataDir?: string;
  log?: (line: string) => void;
  /** What went wrong (a run it cannot start, the queue failing): `log` by default; a CLI `run` shows only these. */
  warn?: (line: string) => void;
  onResult?: (result: ItemResult) => void;
}

/** The longest a worker waits before trying again a run it could not start on (start-backoff.ts). */
const MAX_START_BACKOFF_MS = 60_000;

/** What says a run changed since this worker failed on it: it was resumed, or made the queue's run by another worker. */
const stateOf = (run: Pick<QueueRunListing, "status" | "workerId" | "resumedAt">) => `${run.status} ${run.workerId ?? "-"} ${run.resumedAt?.getTime() ?? "-"}`;

/**
 * A worker on PostgreSQL's queue: takes part in every active run of the shared database (queued ones, and those a dead
 * process left running, are put on the queue first), with as many of each run's slots as it can run and the run has
 * left, until stopped. Any number run at once, on any number of machines; the dashboard's worker process and a CLI
 * `run` are such workers too. A run it cannot start on is tried again later and later (StartBackoff), not every poll.
 */
export function startQueueWorker(options: QueueWorkerOptions): RunWorker & { readonly workerId: string } {
  const { db, concurrency = 256, pollMs = 1000, log = (line) => process.stderr.write(`${line}\n`) } = options;
  const warn = options.warn ?? log;
  const workerId = newWorkerId();
  const identity = queueWorkerIdentity(workerId, options.name ?? "worker");
  const active = new Map<number, { slots: number; done: Promise<unknown> }>();
  const drain = new AbortController();
  const backoff = new StartBackoff({ firstMs: pollMs, maxMs: MAX_START_BACKOFF_MS });
  let queue: Promise<RunQueue> | null = null;
  let polling = false;

  async function poll(): Promise<void> {
    if (polling || drain.signal.aborted) return;
    polling = true;
    try {
      const q = await (queue ??= openRunQueue(db, { ttlSeconds: options.ttlSeconds }));
      // Any live worker puts back the chunks of a dead one, once their lease (the TTL) ran out.
      await q.reclaimExpired();
      const runs = (await listQueueRuns(db)).filter((run) => options.runId === undefined || run.id === options.runId);
      backoff.retain(runs.map((run) => run.id));
      for (const run of runs) {
        if (active.has(run.id) || drain.signal.aborted || !backoff.ready(run.id, stateOf(run))) continue;
        const free = concurrency - [...active.values()].reduce((sum, part) => sum + part.slots, 0);
        if (free <= 0) break;
        // One run this worker cannot start on (its agent is missing here…) leaves the others to go on.
        await join(q, run, free).catch((error: unknown) => failedToStart(run.id, error));
      }
    } catch (error) {
      warn(`queue worker: ${(error as Error).message}`);
    } finally {
      polling = false;
    }
  }

  async function join(q: RunQueue, run: QueueRunListing, free: number): Promise<void> {
    // First whether it can run the run's items here at all, and how many at once: it then asks for no slot it would not use.
    const { chunks, settings, share } = await planRunPart(db, run.id);
    if (run.status === "queued" || run.workerId !== QUEUE_WORKER_ID) {
      const done = await ensureRunChunks(db, q, run.id, () => chunks);
      if (done === "taken over") log(`run ${run.id}: taken over from ${run.workerId ? `the process ${run.workerId}, whose lease is dead` : "no process"} (its stored results stay)`);
    }
    const slots = await joinQueueRun(db, q, run.id, identity, Math.min(free, share));
    if (slots === 0) return;
    log(`run ${run.id}: taking part with ${slots} of its ${settings.concurrency} slots`);
    const done = takePartInRun({ db, queue: q, worker: identity, runId: run.id, slots, drain: drain.signal, drainMs: options.drainMs, model: options.model, dataDir: options.dataDir, log, onResult: options.onResult })
      .then(
        () => backoff.succeeded(run.id),
        async (error: unknown) => {
          // It could not even start (the run's files cannot be written here…): its slots are for the other workers.
          await leaveQueueRun(db, run.id, identity.id).catch(() => undefined);
          await failedToStart(run.id, error);
        },
      )
      .finally(() => {
        active.delete(run.id);
        poller.schedule(0);
      });
    active.set(run.id, { slots, done });
  }

  async function failedToStart(runId: number, error: unknown): Promise<void> {
    // In the state the run is in now (this worker may just have made it the queue's): only a later change is news.
    const run = await getRun(db, runId).catch(() => null);
    const line = backoff.failed(runId, run ? stateOf(run) : "gone", (error as Error).message);
    if (line) warn(`run ${runId}: ${line}`);
  }

  const poller = startPoller(poll, pollMs);
  return {
    workerId,
    wake: () => poller.schedule(0),
    async stop() {
      poller.stop();
      drain.abort("shutdown");
      await Promise.allSettled([...active.values()].map((part) => part.done));
      if (queue) await (await queue).stop().catch(() => undefined);
    },
  };
}
