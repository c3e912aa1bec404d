/**
 * The dashboard's optimisation executor, beside the run worker: polls for queued optimisations (and ones left "running"
 * by a process that died) and executes them. Like runs, an optimisation is claimed through its lease, so a CLI and a
 * server on one database never run the same one twice.
 */
import { setMaxListeners } from "node:events";
import { listOptimizationsToExecute, RunBusyError, type Db } from "../../db";
import { executeOptimization } from "./execute";
import { startPoller } from "../../process/poller";

export interface OptimizationWorker {
  stop(): Promise<void>;
  wake(): void;
}

export function startOptimizationWorker(options: { db: Db; maxParallel?: number; pollMs?: number; log?: (line: string) => void }): OptimizationWorker {
  const { db, maxParallel = 1, pollMs = 2000, log = (line) => process.stderr.write(`${line}\n`) } = options;
  const active = new Map<number, Promise<unknown>>();
  const shutdown = new AbortController();
  setMaxListeners(maxParallel + 8, shutdown.signal);
  let polling = false;

  async function poll(): Promise<void> {
    if (polling || shutdown.signal.aborted) return;
    polling = true;
    try {
      for (const { id } of await listOptimizationsToExecute(db)) {
        if (active.size >= maxParallel) break;
        if (active.has(id)) continue;
        const execution = executeOptimization(db, id, { signal: shutdown.signal, claimableStatuses: ["queued", "running"], log: (line) => log(`optimization ${id}: ${line}`) })
          .then(({ record }) => log(`optimization ${id}: ${record.status}${record.error ? ` (${record.error})` : ""}`))
          .catch((error: unknown) => {
            if (!(error instanceof RunBusyError)) log(`optimization ${id} failed: ${(error as Error).message}`);
          })
          .finally(() => active.delete(id));
        active.set(id, execution);
      }
    } catch (error) {
      log(`optimization worker: ${(error as Error).message}`);
    } finally {
      polling = false;
    }
  }

  const poller = startPoller(poll, pollMs);
  return {
    wake: () => poller.schedule(0),
    async stop() {
      poller.stop();
      shutdown.abort("shutdown");
      await Promise.allSettled(active.values());
    },
  };
}
