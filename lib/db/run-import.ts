import type { ItemResult } from "../runs/types";
import { RunConfigSchema } from "../runs/run-config";
import { shareEventLoop } from "../datasets/time-slice";
import type { Db } from "./client";
import { ResultWriter } from "./result-writer";
import { getRun, type RunRecord } from "./run-records";

/**
 * Results per transaction: each holds the write lock (and, the driver being synchronous, the thread) only briefly.
 * A result row costs some 40 µs to write with its conversation and the explorer's indexes: 2,000 a transaction held
 * the thread for 80–155 ms at a stretch, 500 hold it for 20–40 ms.
 */
const RESULTS_PER_TRANSACTION = 500;

/** Shown as the run's backend and model: nothing says which model produced an imported file. */
export const IMPORTED_BACKEND = "imported" as const;

/**
 * Stores an imported run: the Run row (source "imported"), then every result through the ResultWriter (rows,
 * conversations, counters and running sums, exactly as a rollout writes them) in transactions of
 * RESULTS_PER_TRANSACTION, sharing the event loop between them so a run executing meanwhile keeps writing, then marks
 * it completed. Until then the run reads as failed ("import did not finish"), never as queued, so no worker picks it
 * up; if storing the results fails the run is deleted again.
 */
export async function storeImportedRun(
  db: Db,
  input: { name: string | null; datasetId: number; skillVersionId: number; systemPrompt: string; results: readonly ItemResult[] },
): Promise<RunRecord> {
  // A Skillboard export of a run with repeated trials carries each row's trial: the run is stored with as many.
  let trials = 1;
  for (const r of input.results) trials = Math.max(trials, r.trial);
  const config = RunConfigSchema.parse({ model: { backend: IMPORTED_BACKEND }, settings: { trials } });
  const run = await db.run.create({
    data: {
      name: input.name,
      datasetId: input.datasetId,
      skillVersionId: input.skillVersionId,
      status: "failed",
      error: "import did not finish",
      source: "imported",
      backend: IMPORTED_BACKEND,
      model: IMPORTED_BACKEND,
      configJson: JSON.stringify(config),
      systemPrompt: input.systemPrompt,
      itemsTotal: input.results.length,
    },
  });
  try {
    const writer = new ResultWriter(db, run.id, { maxBatch: Number.POSITIVE_INFINITY, maxDelayMs: 2 ** 31 - 1 });
    for (const [index, result] of input.results.entries()) {
      writer.push(result);
      if ((index + 1) % RESULTS_PER_TRANSACTION === 0) {
        await writer.flush();
        await shareEventLoop();
      }
    }
    await writer.flush();
  } catch (error) {
    await db.run.delete({ where: { id: run.id } }).catch(() => {});
    throw error;
  }
  // A loop, not Math.min(...list): spreading 100,000 arguments overflows the stack.
  let started = Number.POSITIVE_INFINITY;
  let finished = Number.NEGATIVE_INFINITY;
  for (const r of input.results) {
    started = Math.min(started, r.startedAt.getTime());
    finished = Math.max(finished, r.finishedAt.getTime());
  }
  await db.run.update({
    where: { id: run.id },
    data: { status: "completed", error: null, startedAt: new Date(started), finishedAt: new Date(finished), activeMs: Math.max(0, finished - started) },
  });
  return getRun(db, run.id);
}
