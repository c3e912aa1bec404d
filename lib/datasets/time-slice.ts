/**
 * Long imports share the server's one thread. An upload whose chunks are already buffered, a loop over 600,000 items
 * or a run of database writes only ever waits on promises that are already settled, which never lets timers, sockets
 * or other requests in: a 170 MB upload stalled the dashboard (and every run in it) for a minute. Such loops call
 * `shareEventLoop()` often; once the thread has worked for a slice, it steps aside for everything else that is waiting.
 */

/** Longest stretch of import work between two chances for the rest of the server to run. */
const SLICE_MS = 10;

let sliceStartedAt = performance.now();

/** Resolves at once while the current slice lasts; otherwise after the event loop has run its timers and I/O. */
export function shareEventLoop(): Promise<void> | undefined {
  if (performance.now() - sliceStartedAt < SLICE_MS) return undefined;
  return new Promise((resolve) => {
    setImmediate(() => {
      sliceStartedAt = performance.now();
      resolve();
    });
  });
}

/** Runs a stepwise task (a generator that yields between steps) to its end at once, for callers that hold the whole input. */
export function runToEnd<T>(task: Generator<unknown, T>): T {
  for (;;) {
    const step = task.next();
    if (step.done) return step.value;
  }
}

/** Runs a stepwise task, sharing the event loop between its steps. */
export async function runShared<T>(task: Generator<unknown, T>): Promise<T> {
  for (;;) {
    const step = task.next();
    if (step.done) return step.value;
    await shareEventLoop();
  }
}
