import { finishQueueRun, getRun, queueRunForResume, type Db, type RunRecord } from "../db";
import type { ChatModel } from "../model/types";
import type { RolloutEvent } from "./progress";
import { sleep } from "./queue-participation";
import { startQueueWorker } from "./queue-worker";

const RESUMABLE = new Set(["interrupted", "cancelled", "failed"]);

/**
 * A CLI `run` on PostgreSQL: the run is on the queue (queued, or resumed), and this process is one of its workers,
 * with the run's concurrency, until the run ends, whoever stores its results (other workers may share it). An abort
 * (Ctrl-C) pauses the run for every worker ("interrupted": resume with --resume).
 */
export async function takePartInQueuedRun(
  db: Db,
  runId: number,
  options: { signal: AbortSignal; onEvent?: (event: RolloutEvent) => void; model?: ChatModel; pollMs?: number },
): Promise<RunRecord> {
  let run = await getRun(db, runId);
  if (RESUMABLE.has(run.status)) run = await queueRunForResume(db, runId);
  const total = run.itemsTotal;
  if (run.nDone > 0 && run.nDone < total) options.onEvent?.({ kind: "resuming", done: run.nDone, total });
  let completed = run.nDone;
  let correct = Math.round(run.emSum);
  const worker = startQueueWorker({
    db,
    name: "cli",
    runId,
    concurrency: run.config.settings.concurrency,
    model: options.model,
    pollMs: 250,
    // Not its comings and goings (the progress lines say what happens), but why it cannot take part when it cannot.
    log: () => undefined,
    warn: (message) => options.onEvent?.({ kind: "warning", message }),
    onResult: (result) => {
      completed++;
      correct += result.hard;
      options.onEvent?.({ kind: "item", completed, total, correct, result });
    },
  });
  try {
    while (!options.signal.aborted) {
      run = await getRun(db, runId);
      if (run.status !== "queued" && run.status !== "running") break;
      await sleep(options.pollMs ?? 250, options.signal);
    }
  } finally {
    // A pause first: every worker of the run (this one too) stops its items at its next heartbeat.
    if (options.signal.aborted) await finishQueueRun(db, runId, async () => null, { status: "interrupted" });
    await worker.stop();
  }
  return getRun(db, runId);
}
