import { setMaxListeners } from "node:events";
import { listRunsToExecute, RunBusyError, type Db } from "../db";
import { executeRun } from "./execute-run";
import { startPoller } from "../process/poller";

export interface RunWorkerOptions {
  db: Db;
  /** How many runs this process executes at once. */
  maxParallelRuns?: number;
  pollMs?: number;
  log?: (line: string) => void;
  /** After every poll, the ids of the runs it started executing (some may turn out to be held elsewhere). For tests. */
  onPoll?: (started: number[]) => void;
}

export interface RunWorker {
  /** Stops taking runs; the runs under way are released, still "running", for the next start to resume. */
  stop(): Promise<void>;
  /** Looks for work now instead of at the next poll (after a run is queued). */
  wake(): void;
}

/**
 * The dashboard's executor: polls the database for queued runs, and for runs left "running" by a process
 * that died (a crash or restart), and executes them. The database is the only job list: a run is claimed
 * through its lease, so several processes can share one database without running anything twice.
 */
export function startRunWorker(options: RunWorkerOptions): RunWorker {
  const { db, maxParallelRuns = 4, pollMs = 1000, log = (line) => process.stderr.write(`${line}\n`) } = options;
  const active = new Map<number, Promise<unknown>>();
  const shutdown = new AbortController();
  setMaxListeners(maxParallelRuns + 8, shutdown.signal);
  let polling = false;

  async function poll(): Promise<void> {
    if (polling || shutdown.signal.aborted) return;
    polling = true;
    const started: number[] = [];
    try {
      const capacity = maxParallelRuns - active.size;
      if (capacity <= 0) return;
      const candidates = await listRunsToExecute(db, [...active.keys()]);
      for (const { id, status } of candidates) {
        if (active.size >= maxParallelRuns) break;
        const execution = executeRun(db, id, {
          signal: shutdown.signal,
          // Only what was waiting: a run that finished or was cancelled since the query above stays as it is.
          claimableStatuses: ["queued", "running"],
          onEvent: (event) => {
            if (event.kind === "resuming" && status === "running") log(`run ${id}: resuming after a restart (${event.done} of ${event.total} items done)`);
          },
        })
          .then((run) => {
            log(`run ${id}: ${run.status}${run.error ? ` (${run.error})` : ""}`);
            return true;
          })
          .catch((error: unknown) => {
            // A live process (a CLI, another server) holds this run's lease, or it moved on: not ours to execute.
            if (error instanceof RunBusyError) return false;
            log(`run ${id} failed: ${(error as Error).message}`);
            return true;
          })
          .then((executed) => {
            active.delete(id);
            // A slot freed by a finished run is filled at once; a run someone else holds is looked at again only at
            // the next regular poll, not in a tight loop.
            if (executed) schedule(0);
          });
        active.set(id, execution);
        started.push(id);
      }
    } catch (error) {
      log(`run worker: ${(error as Error).message}`);
    } finally {
      polling = false;
      options.onPoll?.(started);
    }
  }

  const poller = startPoller(poll, pollMs);
  const schedule = (delay: number) => poller.schedule(delay);
  return {
    wake: () => schedule(0),
    async stop() {
      poller.stop();
      shutdown.abort("shutdown");
      await Promise.allSettled(active.values());
    },
  };
}
