/** Retry timing: exponential backoff with full jitter, server hints, and sleeps a signal can cut short. */

import { ModelCallAbortedError } from "./errors";

export interface BackoffOptions {
  /** Delay ceiling before jitter for the first retry. */
  baseMs: number;
  /** No computed or server-requested delay exceeds this. */
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, capMs: 30_000 };

/**
 * Full jitter (uniform in [0, min(cap, base * 2^retryIndex)]): spreads out the retries of many
 * concurrent items that hit the same rate limit, instead of having them return in lockstep.
 */
export function backoffDelayMs(retryIndex: number, options: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.min(retryIndex, 30));
  return Math.floor(random() * ceiling);
}

/**
 * The wait the server asked for, from `retry-after-ms` (milliseconds) or `Retry-After` (seconds or
 * an HTTP date); undefined when there is no usable hint. Never negative.
 */
export function serverRequestedDelayMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const millis = headers.get("retry-after-ms");
  if (millis !== null && millis.trim() !== "") {
    const value = Number(millis);
    if (Number.isFinite(value)) return Math.max(0, value);
  }
  const retryAfter = headers.get("retry-after")?.trim();
  if (!retryAfter) return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with an AbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ModelCallAbortedError({ reason: signal.reason }));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelCallAbortedError({ reason: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
