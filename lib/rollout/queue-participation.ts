import { setMaxListeners } from "node:events";
import {
  ensureRunChunks, finishQueueRun, getDataset, getRun, heartbeatQueueRun, leaveQueueRun, loadPendingChunk, mostCommonFailReason, ResultWriter,
  type Db, type QueueWorkerIdentity,
} from "../db";
import type { ChunkData, RunQueue } from "../db/run-queue";
import type { OrdinalSelection } from "../db/pending-items";
import type { ChatModel } from "../model/types";
import type { RunSettings } from "../runs/run-config";
import type { ItemResult, RolloutItem } from "../runs/types";
import { agentConcurrency, prepareRunBackend, processConcurrency } from "./run-backend";
import { runBatch, type LiveGauges } from "./run-batch";
import { planRunSelection, selectionSize } from "./select-items";
import { systemicFailureMessage } from "./systemic-failure";

/** How long, by default, the items in flight may take to finish once the worker is told to stop (SKILLBOARD_WORKER_DRAIN_S). */
export const DEFAULT_DRAIN_MS = 20_000;

export interface ParticipationOptions {
  db: Db;
  queue: RunQueue;
  worker: QueueWorkerIdentity;
  runId: number;
  /** The share of the run's concurrency this worker holds (joinQueueRun). */
  slots: number;
  /** Stop taking chunks; the items in flight finish (up to `drainMs`), the rest of the chunks go back to the queue. */
  drain: AbortSignal;
  drainMs?: number;
  model?: ChatModel;
  dataDir?: string;
  heartbeatMs?: number;
  log?: (line: string) => void;
  /** Each result this worker finished (a CLI run's progress lines). */
  onResult?: (result: ItemResult) => void;
}

/**
 * Chunk size. Small enough that a worker's share of the run spans several chunks (what a kill gives back to the queue
 * is about a quarter of its share, redone by others), large enough that fetching is not the cost (20,000 items at
 * concurrency 128: 625 jobs, one fetch per 32 items).
 */
export function chunkSizeFor(concurrency: number): number {
  return Math.max(1, Math.min(64, Math.ceil(concurrency / 4)));
}

/** The jobs of a run: every position of its selection in every trial (stored pairs are skipped when a chunk is taken). */
export function planChunks(size: number, trials: number, concurrency: number): ChunkData[] {
  const chunk = chunkSizeFor(concurrency);
  const chunks: ChunkData[] = [];
  for (let trial = 1; trial <= trials; trial++) for (let from = 0; from < size; from += chunk) chunks.push({ trial, from, to: Math.min(size, from + chunk) });
  return chunks;
}

/**
 * What a worker needs before it joins a run: the run's chunks (if it is the one to enqueue them), its concurrency, and
 * how many of its items this process may run at once (processConcurrency; throws when it cannot run them here).
 */
export async function planRunPart(db: Db, runId: number): Promise<{ chunks: ChunkData[]; settings: RunSettings; share: number }> {
  const run = await getRun(db, runId);
  const share = processConcurrency(run.config);
  const selection = await planRunSelection(db, await getDataset(db, run.datasetId), run.config.settings);
  return { chunks: planChunks(selectionSize(selection), run.config.settings.trials, run.config.settings.concurrency), settings: run.config.settings, share };
}

/** Waits `ms`, or less if `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

const pairKey = (itemId: string, trial: number) => `${trial}\u0000${itemId}`;

/**
 * This worker's part in a run executed through the queue: takes chunks, runs their items with its slots, stores each
 * result (ResultWriter: seq and sums from the database), completes a chunk once all its results are stored, renews its
 * chunks and its RunWorker row, and stops when the run is done, cancelled or paused (seen at the next heartbeat).
 */
export async function takePartInRun(options: ParticipationOptions): Promise<string> {
  const { db, queue, worker, runId } = options;
  const log = options.log ?? (() => undefined);
  const run = await getRun(db, runId);
  const settings = run.config.settings;
  const selection: OrdinalSelection = await planRunSelection(db, await getDataset(db, run.datasetId), settings);
  const ordinalAt = (position: number) => ("end" in selection ? position : selection.ordinals[position]!);
  const plan = planChunks(selectionSize(selection), settings.trials, settings.concurrency);
  const { agent, baseModel, model } = await prepareRunBackend(db, run, options);
  const writer = new ResultWriter(db, runId, { ownsGauges: false, origin: { worker: worker.name } });

  const stop = new AbortController();
  setMaxListeners(options.slots + 16, stop.signal);
  const draining = () => options.drain.aborted || stop.signal.aborted;
  const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
  let drainTimer: NodeJS.Timeout | undefined;
  const onDrain = () => {
    drainTimer = setTimeout(() => {
      log(`run ${runId}: the drain time (${drainMs / 1000} s) is over: the items still in flight are aborted and their chunks given back`);
      stop.abort("shutdown");
    }, drainMs).unref();
  };
  options.drain.addEventListener("abort", onDrain, { once: true });
  /** Chunks held: how many of their items are not stored yet. */
  const held = new Map<string, number>();
  const chunkOf = new Map<string, string>();
  const completions: Promise<unknown>[] = [];
  let gauges: LiveGauges = { inFlight: 0, retrying: 0, rateLimited: 0 };
  const judge = async ({ nDone, nAgentOk }: { nDone: number; nAgentOk: number }) => {
    if (nDone === 0 || nAgentOk > 0) return null;
    const top = await mostCommonFailReason(db, runId);
    return top ? systemicFailureMessage(nDone, top) : "all items failed";
  };

  async function* items(): AsyncGenerator<RolloutItem> {
    while (!draining()) {
      const chunk = await queue.fetch(runId);
      // Nothing waiting: this batch ends once its items in flight are done (the loop below looks again).
      if (!chunk) return;
      const ordinals = Array.from({ length: chunk.to - chunk.from }, (_, i) => ordinalAt(chunk.from + i));
      const pending = await loadPendingChunk(db, { datasetId: run.datasetId, runId, trial: chunk.trial, ordinals });
      if (pending.length === 0) {
        await queue.complete(runId, [chunk.jobId]);
        continue;
      }
      held.set(chunk.jobId, pending.length);
      for (const item of pending) chunkOf.set(pairKey(item.id, item.trial), chunk.jobId);
      for (const item of pending) {
        if (draining()) return;
        yield item;
      }
    }
  }

  const runChunks = () =>
    runBatch({
      items: items(),
      model,
      resampleModel: baseModel,
      agent,
      systemPrompt: run.systemPrompt,
      settings: { ...settings, concurrency: agentConcurrency(agent, options.slots) },
      signal: stop.signal,
      onLiveChange: (now) => (gauges = now),
      onResult: (result) => {
        writer.push(result);
        options.onResult?.(result);
        const key = pairKey(result.itemId, result.trial);
        const jobId = chunkOf.get(key);
        chunkOf.delete(key);
        if (!jobId) return;
        const left = (held.get(jobId) ?? 1) - 1;
        held.set(jobId, left);
        // Completed only once its results are stored: a kill before that gives the chunk back, and the rows say what is done.
        if (left === 0) completions.push(writer.flush().then(() => queue.complete(runId, [jobId])).then(() => held.delete(jobId)));
      },
    });

  const heartbeat = setInterval(() => {
    void writer.flush().catch(() => undefined);
    void queue.keepAlive(runId, [...held.keys()]).catch(() => undefined);
    void heartbeatQueueRun(db, runId, worker.id, gauges).then((status) => {
      if (status !== "running") stop.abort("cancelled");
    }, () => undefined);
  }, options.heartbeatMs ?? Math.min(2000, (queue.ttlSeconds * 1000) / 6));

  let ended = "running";
  try {
    let outcome: Awaited<ReturnType<typeof runBatch>>;
    for (;;) {
      outcome = await runChunks();
      await writer.flush();
      await Promise.all(completions);
      if (outcome.kind !== "finished" || draining()) break;
      // The queue had nothing waiting: the run is done once every result is stored; until then others hold the rest (a
      // dead worker's chunks come back after the TTL), or its jobs were lost between two steps and are made again.
      if ((ended = (await finishQueueRun(db, runId, judge)) ?? "gone") !== "running") return ended;
      await ensureRunChunks(db, queue, runId, () => plan);
      await sleep(500, stop.signal);
    }
    if (outcome.kind === "fatal") ended = (await finishQueueRun(db, runId, judge, { status: "failed", error: outcome.error.message })) ?? "failed";
    else ended = outcome.kind === "aborted" ? String(outcome.reason) : "released";
    return ended;
  } finally {
    clearInterval(heartbeat);
    clearTimeout(drainTimer);
    options.drain.removeEventListener("abort", onDrain);
    // Chunks not finished go back now, for another worker (or this one's next start) to take.
    const unfinished = [...held.entries()].filter(([, left]) => left > 0).map(([jobId]) => jobId);
    await queue.release(runId, unfinished).catch((error: unknown) => log(`run ${runId}: giving chunks back failed: ${(error as Error).message}`));
    await leaveQueueRun(db, runId, worker.id).catch(() => undefined);
    log(`run ${runId}: ${writer.counts.written} results stored by this worker (${writer.counts.skipped} already stored), ${ended}`);
  }
}
