import { FatalModelError } from "../model";
import type { ChatModel } from "../model/types";
import { timeoutResult, unexpectedErrorResult } from "./batch-rows";
import type { AgentItemBackend, ItemTrace } from "./process-agent-item";
import { processItem } from "./process-item";
import { effectiveTaskTimeoutS, type RunSettings } from "../runs/run-config";
import { trialOf, type ItemResult, type RolloutItem } from "../runs/types";

/** Calls under way right now, how many of them are waiting to retry, and how many of those were rate-limited. */
export interface LiveGauges {
  inFlight: number;
  retrying: number;
  rateLimited: number;
}

export interface RunBatchOptions {
  /** Taken one at a time as workers free up: an async source (items paged from the database) is read only as needed. */
  items: Iterable<RolloutItem> | AsyncIterable<RolloutItem>;
  /** The chat model; agent runs give `agent` instead. */
  model?: ChatModel;
  /** Repeated trials: the model for trials after the first, when it differs (the model without the response cache). */
  resampleModel?: ChatModel;
  agent?: AgentItemBackend;
  systemPrompt: string;
  settings: RunSettings;
  /** Cancel or interrupt: no new item starts, calls in flight are aborted and their items left unrecorded. */
  signal?: AbortSignal;
  /** Called once per finished item, in completion order. */
  onResult(result: ItemResult): void;
  onLiveChange?(gauges: LiveGauges): void;
}

export type BatchOutcome =
  | { kind: "finished" }
  | { kind: "aborted"; reason: unknown }
  /** A model error that retrying cannot fix (bad key, unknown model, bad request) stopped the batch. */
  | { kind: "fatal"; error: FatalModelError };

class TaskTimeout extends Error {
  override name = "TaskTimeout";
}

/**
 * The seed's run_batch, with a bounded pool of `concurrency` workers instead of a thread pool:
 * each item gets the task timeout, after which the seed's timeout row is recorded and the worker moves on.
 */
export async function runBatch(options: RunBatchOptions): Promise<BatchOutcome> {
  const { settings } = options;
  const taskTimeoutS = effectiveTaskTimeoutS(settings);
  const stop = new AbortController();
  // The items in flight, aborted by the one listener on the stop signal. (A listener per item made every
  // add and remove walk Node's list of 256 listeners: 1 s of CPU in a 20,000-item profile.)
  const running = new Set<AbortController>();
  stop.signal.addEventListener("abort", () => {
    for (const controller of running) controller.abort(stop.signal.reason);
  }, { once: true });
  const onOuterAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) onOuterAbort();
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });

  const gauges: LiveGauges = { inFlight: 0, retrying: 0, rateLimited: 0 };
  const emit = () => options.onLiveChange?.({ ...gauges });
  let fatal: FatalModelError | undefined;
  let readFailure: { error: unknown } | undefined;
  const source = Symbol.asyncIterator in options.items ? options.items[Symbol.asyncIterator]() : options.items[Symbol.iterator]();

  async function runOne(item: RolloutItem): Promise<ItemResult | null> {
    const controller = new AbortController();
    if (stop.signal.aborted) controller.abort(stop.signal.reason);
    running.add(controller);
    const timer = setTimeout(() => controller.abort(new TaskTimeout()), taskTimeoutS * 1000);
    const startedAt = new Date();
    // Agent runs: the exec details so far, kept even when the task timeout cuts the item short.
    const trace: ItemTrace = {};
    let waiting: "no" | "retry" | "rate-limited" = "no";
    const setWaiting = (value: typeof waiting) => {
      if (waiting === value) return;
      gauges.retrying += (value !== "no" ? 1 : 0) - (waiting !== "no" ? 1 : 0);
      gauges.rateLimited += (value === "rate-limited" ? 1 : 0) - (waiting === "rate-limited" ? 1 : 0);
      waiting = value;
      emit();
    };
    gauges.inFlight++;
    emit();
    try {
      // The race frees the worker at the deadline even if a provider ignores its abort signal.
      return await Promise.race([
        processItem(item, {
          model: trialOf(item) > 1 && options.resampleModel ? options.resampleModel : options.model,
          agent: options.agent,
          trace,
          systemPrompt: options.systemPrompt,
          settings,
          signal: controller.signal,
          observer: {
            onRetryScheduled: ({ rateLimited }) => setWaiting(rateLimited ? "rate-limited" : "retry"),
            onRetryStarted: () => setWaiting("no"),
          },
        }),
        rejectOnAbort(controller.signal),
      ]);
    } catch (error) {
      if (controller.signal.reason instanceof TaskTimeout) {
        const row = timeoutResult(item, startedAt, taskTimeoutS);
        return trace.exec ? { ...row, exec: trace.exec } : row;
      }
      if (stop.signal.aborted) return null;
      if (error instanceof FatalModelError) {
        fatal ??= error;
        stop.abort(error);
        return null;
      }
      return unexpectedErrorResult(item, startedAt, error);
    } finally {
      clearTimeout(timer);
      running.delete(controller);
      setWaiting("no");
      gauges.inFlight--;
      emit();
    }
  }

  async function worker(): Promise<void> {
    while (!stop.signal.aborted) {
      let next: IteratorResult<RolloutItem>;
      try {
        next = await source.next();
      } catch (error) {
        // The items could not be read (the database failed): stop the others, and fail once they have stopped.
        readFailure ??= { error };
        stop.abort(error);
        return;
      }
      if (next.done) return;
      const item = next.value;
      // The stop may have come while the item was being read: it is left for a resume, like the ones not yet read.
      if (stop.signal.aborted) return;
      const result = await runOne(item);
      // A result that finished as the run was stopped is still a finished result: keep it.
      if (result) options.onResult(result);
    }
  }

  try {
    await Promise.all(Array.from({ length: settings.concurrency }, worker));
  } finally {
    options.signal?.removeEventListener("abort", onOuterAbort);
    // Ends a paged source early (a stop) so it holds nothing open.
    if (!readFailure) await source.return?.();
  }
  if (readFailure) throw readFailure.error;
  if (fatal) return { kind: "fatal", error: fatal };
  if (stop.signal.aborted) return { kind: "aborted", reason: stop.signal.reason };
  return { kind: "finished" };
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
}
