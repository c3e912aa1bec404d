/**
 * Our own retry loop around one model call. The SDK's retries are off so that every retry and
 * every 429 is counted per item, and so that an abort also cuts a backoff sleep short.
 */

import { backoffDelayMs, sleep, type BackoffOptions } from "./backoff";
import { AttemptTimeoutError, type AttemptFailure } from "./attempt-failure";
import { FatalModelError, ModelCallAbortedError, ModelCallError, throwIfAborted } from "./errors";
import type { RequestGate } from "./limits/request-gate";
import type { CallObserver, CallStats } from "./types";

export interface RetryingCallOptions {
  maxRetries: number;
  backoff: BackoffOptions;
  /** Deadline for each attempt on its own. */
  callTimeoutMs: number;
  signal?: AbortSignal;
  observer?: CallObserver;
  classify: (error: unknown) => AttemptFailure;
  /** Applied to every message that leaves this module (removes the API key should a server echo it). */
  scrub: (message: string) => string;
  random?: () => number;
  /** Adaptive concurrency and rate caps every attempt passes before it is sent (none by default). */
  gate?: { gate: RequestGate; estimatedTokens: number; tokensOf?: (value: unknown) => number };
}

export async function callWithRetries<T>(
  attempt: (attemptSignal: AbortSignal) => Promise<T>,
  options: RetryingCallOptions,
): Promise<{ value: T; stats: CallStats }> {
  const stats: CallStats = { attempts: 0, retries: 0, rateLimited: 0 };
  for (;;) {
    throwIfAborted(options.signal, stats);
    stats.attempts += 1;
    let failure: AttemptFailure;
    let ticket;
    try {
      ticket = await options.gate?.gate.acquire(options.gate.estimatedTokens, options.signal);
    } catch {
      throw new ModelCallAbortedError({ reason: options.signal?.reason, stats });
    }
    try {
      const value = await runAttemptWithDeadline(attempt, options.callTimeoutMs, options.signal);
      ticket?.finish("ok", options.gate?.tokensOf?.(value));
      return { value, stats };
    } catch (error) {
      // Whatever the SDK made of it, an abort by our caller is an abort, never a retry.
      if (options.signal?.aborted) {
        ticket?.finish("other");
        throw new ModelCallAbortedError({ reason: options.signal.reason, stats });
      }
      failure = options.classify(error);
      // A 429 or a timed-out attempt says the server is overloaded: the adaptive limit falls.
      ticket?.finish(failure.status === 429 || error instanceof AttemptTimeoutError ? "overload" : "other");
    }
    if (failure.status === 429) stats.rateLimited += 1;
    const message = options.scrub(failure.message);
    if (!failure.retryable) {
      throw new FatalModelError(message, { status: failure.status ?? 0, code: failure.code, stats, cause: failure.cause });
    }
    if (stats.retries >= options.maxRetries) {
      throw new ModelCallError(message, { status: failure.status, stats, cause: failure.cause });
    }
    const delayMs =
      failure.retryAfterMs !== undefined
        ? Math.min(failure.retryAfterMs, options.backoff.capMs)
        : backoffDelayMs(stats.retries, options.backoff, options.random);
    options.observer?.onRetryScheduled?.({
      attempt: stats.attempts,
      delayMs,
      status: failure.status,
      rateLimited: failure.status === 429,
      message,
    });
    try {
      await sleep(delayMs, options.signal);
    } catch {
      throw new ModelCallAbortedError({ reason: options.signal?.reason, stats });
    } finally {
      // Fired even when an abort cut the backoff short, so observers can always pair it with
      // onRetryScheduled (e.g. a "retrying now" gauge never leaks).
      options.observer?.onRetryStarted?.();
    }
    stats.retries += 1;
  }
}

/**
 * Runs one attempt under a signal that fires on the caller's abort or on the per-attempt deadline.
 * Settles as soon as either fires, even if the attempt itself were slow to notice.
 */
async function runAttemptWithDeadline<T>(
  attempt: (attemptSignal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  outer: AbortSignal | undefined,
): Promise<T> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onOuterAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new AttemptTimeoutError(timeoutMs)), timeoutMs);
  let onAttemptAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAttemptAbort = () => reject(controller.signal.reason);
    controller.signal.addEventListener("abort", onAttemptAbort, { once: true });
  });
  const running = attempt(controller.signal);
  running.catch(() => undefined); // the race below may leave it unobserved
  try {
    return await Promise.race([running, aborted]);
  } catch (error) {
    if (controller.signal.reason instanceof AttemptTimeoutError) throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
    if (onAttemptAbort) controller.signal.removeEventListener("abort", onAttemptAbort);
  }
}
