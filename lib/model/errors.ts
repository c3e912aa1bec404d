import { redactSecrets } from "../text/redact-secrets";
import type { CallStats } from "./types";

/**
 * The model server refused the request in a way retrying cannot fix (bad key, unknown model,
 * invalid request). The executor stops the whole run on this, so the message is written for a user.
 */
export class FatalModelError extends Error {
  override readonly name = "FatalModelError";
  /** HTTP status from the server. */
  readonly status: number;
  /** The server's error code when it sent one (e.g. "model_not_found", "context_length_exceeded"). */
  readonly code: string | undefined;
  readonly stats: CallStats;

  constructor(message: string, options: { status: number; code?: string; stats: CallStats; cause?: unknown }) {
    // The message becomes the run's error, shown and stored: never with a secret in it.
    super(redactSecrets(message), { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.stats = { ...options.stats };
  }
}

/** Every attempt failed with a retryable error; carries the stats so the executor can record them. */
export class ModelCallError extends Error {
  override readonly name = "ModelCallError";
  /** HTTP status of the last attempt, if it got one. */
  readonly status: number | undefined;
  readonly stats: CallStats;

  constructor(message: string, options: { status?: number; stats: CallStats; cause?: unknown }) {
    // The message becomes the item's fail reason, shown and stored: never with a secret in it.
    super(redactSecrets(message), { cause: options.cause });
    this.status = options.status;
    this.stats = { ...options.stats };
  }
}

/**
 * The caller aborted the call (run cancelled, item task timeout). `name` is "AbortError" so code
 * that checks for DOM-style aborts recognises it; `cause` is the signal's reason.
 */
export class ModelCallAbortedError extends Error {
  override readonly name = "AbortError";
  /** What the call had done before the abort, when known. */
  readonly stats: CallStats | undefined;

  constructor(options: { reason?: unknown; stats?: CallStats } = {}) {
    super("model call aborted", { cause: options.reason });
    this.stats = options.stats ? { ...options.stats } : undefined;
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

export function throwIfAborted(signal: AbortSignal | undefined, stats?: CallStats): void {
  if (signal?.aborted) throw new ModelCallAbortedError({ reason: signal.reason, stats });
}
