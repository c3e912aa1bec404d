import { ensureRunChunks, joinQueueRun, leaveQueueRun, listQueueRuns, newWorkerId, queueWorkerIdentity, type Db } from "../db";
import { openRunQueue, type RunQueue } from "../db/run-queue";
import type { ChatModel } from "../model/types";
import type { ItemResult } from "../runs/types";
import { startPoller } from "../process/poller";
import { planRunChunks, takePartInRun } from "./queue-participation";
import type { RunWorker } from "./run-worker";

export interface QueueWorkerOptions {
  db: Db;
  /** --name: shown on the run page's workers table and recorded with agent items. */
  name?: string;
  /** Items in flight in this process, over all the runs it takes part in. */
  concurrency?: number;
  /** Only this run (a CLI `run` taking part in its own run). */
  runId?: number;
  pollMs?: number;
  /** SIGTERM: how long the items in flight may take to finish before they are aborted. */
  drainMs?: number;
  ttlSeconds?: number;
  model?: ChatModel;
  dataDir?: string;
  log?: (line: string) => void;
  onResult?: (result: ItemResult) => void;
}

/**
 * A worker on PostgreSQL's queue: takes part in every active run of the shared database (queued ones are put on the
 * queue first), with as many of each run's slots as it can run and the run has left, until stopped. Any number run at
 * once, on any number of machines; the dashboard's worker process and a CLI `run` are such workers too.
 */
export function startQueueWorker(options: QueueWorkerOptions): RunWorker & { readonly workerId: string } {
  const { db, concurrency = 256, pollMs = 1000, log = (line) => process.stderr.write(`${line}\n`) } = options;
  const workerId = newWorkerId();
  const identity = queueWorkerIdentity(workerId, options.name ?? "worker");
  const active = new Map<number, { slots: number; done: Promise<unknown> }>();
  const drain = new AbortController();
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
      for (const run of runs) {
        if (active.has(run.id) || drain.signal.aborted) continue;
        const free = concurrency - [...active.values()].reduce((sum, part) => sum + part.slots, 0);
        if (free <= 0) break;
        const { chunks, settings } = await planRunChunks(db, run.id);
        if (run.status === "queued") await ensureRunChunks(db, q, run.id, () => chunks);
        const slots = await joinQueueRun(db, q, run.id, identity, Math.min(free, settings.concurrency));
        if (slots === 0) continue;
        log(`run ${run.id}: taking part with ${slots} of its ${settings.concurrency} slots`);
        const done = takePartInRun({ db, queue: q, worker: identity, runId: run.id, slots, drain: drain.signal, drainMs: options.drainMs, model: options.model, dataDir: options.dataDir, log, onResult: options.onResult })
          .catch(async (error: unknown) => {
            log(`run ${run.id}: ${(error as Error).message}`);
            // It could not even start (an agent missing on this machine…): its slots are for the other workers.
            await leaveQueueRun(db, run.id, identity.id).catch(() => undefined);
          })
          .finally(() => {
            active.delete(run.id);
            poller.schedule(0);
          });
        active.set(run.id, { slots, done });
      }
    } catch (error) {
      log(`queue worker: ${(error as Error).message}`);
    } finally {
      polling = false;
    }
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
