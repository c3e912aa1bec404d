/**
 * stdout and stderr that a reader can close (`| head`, a supervisor that went away) without taking the process down.
 *
 * Why: a write to a closed pipe fails with EPIPE, emitted as an 'error' event; with no listener that is an uncaught
 * exception, which the server then tries to log — to the same closed pipe — and so on, at full CPU. Once a stream has
 * failed, every later write to it is dropped instead.
 */

import type { Writable } from "node:stream";
import { redactSecrets } from "../text/redact-secrets";

interface GuardedStream {
  /** True once a write failed: the reader is gone and writes are being dropped. */
  readonly closed: boolean;
}

const guards = new WeakMap<Writable, GuardedStream>();

/** Makes `stream` drop writes once one has failed; idempotent, returns the stream's state. */
export function guardOutputStream(stream: Writable, onClosed?: (error: NodeJS.ErrnoException) => void): GuardedStream {
  const existing = guards.get(stream);
  if (existing) return existing;
  const state = { closed: false };
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (state.closed) return;
    state.closed = true;
    // Later writes report success and go nowhere: nobody is left to read them.
    stream.write = ((_chunk: unknown, encodingOrCallback?: unknown, callback?: unknown) => {
      const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
      if (typeof done === "function") process.nextTick(done as () => void);
      return true;
    }) as Writable["write"];
    onClosed?.(error);
  });
  guards.set(stream, state);
  return state;
}

/** Resolves once everything written to `stream` so far has been handed to the operating system (or the reader left). */
export function flushOutputStream(stream: Writable): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => stream.write("", () => resolve()));
}

/**
 * Makes every write to `stream` pass through redactSecrets: a log stream (the server's stdout and stderr, the CLI's
 * stderr) never shows a key, whatever code wrote the line (Next's own error logging included). Not for data streams.
 */
export function redactWrites(stream: Writable): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === "string") return write(redactSecrets(chunk), ...rest);
    if (chunk instanceof Uint8Array) {
      const text = Buffer.from(chunk).toString("utf8");
      const redacted = redactSecrets(text);
      return write(redacted === text ? chunk : redacted, ...(redacted === text ? rest : rest.filter((arg) => typeof arg === "function")));
    }
    return write(chunk, ...rest);
  }) as Writable["write"];
}
