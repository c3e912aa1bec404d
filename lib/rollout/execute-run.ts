import {
  claimRun, countRunResults, finishRun, getDataset, getRunAnswerCounts, heartbeatRun, iteratePendingItems,
  mostCommonFailReason, newWorkerId, releaseRun, ResultWriter, type Db, type RunRecord,
} from "../db";
import type { ChatModel } from "../model/types";
import { agentConcurrency, prepareRunBackend } from "./run-backend";
import type { RolloutEvent } from "./progress";
import type { RunStatus } from "../runs/types";
import { runBatch } from "./run-batch";
import { planRunSelection, selectionSize } from "./select-items";
import { systemicFailureMessage } from "./systemic-failure";

export interface ExecuteRunOptions {
  /**
   * Abort to stop: with reason "shutdown" the run stays "running" with its lease released (the server
   * resumes it when it starts again); any other reason pauses it as "interrupted" (Ctrl-C).
   */
  signal?: AbortSignal;
  onEvent?(event: RolloutEvent): void;
  workerId?: string;
  /** For tests: a model other than the one the run's configuration names. */
  model?: ChatModel;
  heartbeatMs?: number;
  writer?: { maxBatch?: number; maxDelayMs?: number };
  /** Agent runs: the data folder holding runs/<id>/workspaces (default: the folder of DATABASE_URL's file). */
  dataDir?: string;
  /** Execute only a run in one of these statuses (see claimRun); any status by default (an explicit resume). */
  claimableStatuses?: readonly RunStatus[];
}

/**
 * Executes (or resumes) a stored run to its end: claims the lease, skips items that already have a
 * result, runs the rest and stores each as it finishes. Returns the run as stored afterwards.
 */
export async function executeRun(db: Db, runId: number, options: ExecuteRunOptions = {}): Promise<RunRecord> {
  const workerId = options.workerId ?? newWorkerId();
  const run = await claimRun(db, runId, workerId, options.claimableStatuses);
  const started = performance.now();
  const settings = run.config.settings;
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(options.signal?.reason === "shutdown" ? "shutdown" : "interrupted");
  options.signal?.addEventListener("abort", onInterrupt, { once: true });
  if (options.signal?.aborted) onInterrupt();

  let writer: ResultWriter | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    // The items are paged from the database as the workers take them: memory holds those in flight, not the run.
    const selection = await planRunSelection(db, await getDataset(db, run.datasetId), settings);
    const total = selectionSize(selection) * settings.trials;
    const done = await countRunResults(db, runId);
    if (done > 0 && done < total) options.onEvent?.({ kind: "resuming", done, total });
    const pending = iteratePendingItems(db, { datasetId: run.datasetId, runId, selection, trials: settings.trials });

    const { agent, baseModel, gate, model } = await prepareRunBackend(db, run, options);
    writer = new ResultWriter(db, runId, options.writer);
    const activeWriter = writer;
    heartbeat = setInterval(() => {
      void activeWriter.flush().catch(() => undefined);
      void heartbeatRun(db, runId, workerId).then(({ cancelRequested, leaseLost }) => {
        if (cancelRequested) stop.abort("cancelled");
        else if (leaseLost) stop.abort("lease-lost");
      }, () => undefined);
    }, options.heartbeatMs ?? 2000);

    let completed = done;
    let correct = run.emSum;
    const outcome = await runBatch({
      items: pending,
      model,
      resampleModel: baseModel,
      agent,
      systemPrompt: run.systemPrompt,
      // An agent may cap how many of its processes run at once.
      settings: { ...settings, concurrency: agentConcurrency(agent, settings.concurrency) },
      signal: stop.signal,
      onLiveChange: (gauges) => activeWriter.setGauges({ ...gauges, concurrencyLimit: gate?.currentLimit() ?? null }),
      onResult: (result) => {
        activeWriter.push(result);
        completed++;
        correct += result.hard;
        options.onEvent?.({ kind: "item", completed, total, correct, result });
      },
    });
    clearInterval(heartbeat);
    activeWriter.setGauges({ inFlight: 0, retrying: 0, rateLimited: 0 });
    await activeWriter.flush();

    const activeMs = performance.now() - started;
    if (outcome.kind === "fatal") return finishRun(db, runId, workerId, { status: "failed", error: outcome.error.message, activeMs });
    if (outcome.kind === "aborted") {
      // A server shutting down leaves its runs "running" with no lease, so the next start resumes them.
      if (outcome.reason === "shutdown") return releaseRun(db, runId, workerId, activeMs);
      const status = outcome.reason === "cancelled" ? "cancelled" : "interrupted";
      return finishRun(db, runId, workerId, { status, activeMs });
    }
    const stored = await getRunAnswerCounts(db, runId);
    if (stored.nDone > 0 && stored.nAgentOk === 0) {
      const top = await mostCommonFailReason(db, runId);
      const error = top ? systemicFailureMessage(stored.nDone, top) : "all items failed";
      return finishRun(db, runId, workerId, { status: "failed", error, activeMs });
    }
    return finishRun(db, runId, workerId, { status: "completed", activeMs });
  } catch (error) {
    if (heartbeat) clearInterval(heartbeat);
    await writer?.flush().catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    await finishRun(db, runId, workerId, { status: "failed", error: message, activeMs: performance.now() - started });
    throw error;
  } finally {
    options.signal?.removeEventListener("abort", onInterrupt);
  }
}

