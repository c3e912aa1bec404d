/**
 * stdout and stderr that a reader can close (`| head`, a supervisor that went away) without taking the process down.
 *
 * Why: a write to a closed pipe fails with EPIPE, emitted as an 'error' event; with no listener that is an uncaught
 * exception, which the server then tries to log — to the same closed pipe — and so on, at full CPU. Once a stream has
 * failed, every later write to it is dropped instead.
 */

import type { Writable } from "node:stream";

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
