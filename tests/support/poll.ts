/**
 * Reads `read()` every `intervalMs` until `done` holds or `timeoutMs` has passed, and returns the last value either
 * way (the caller's assertion then says what was expected), for state another process changes.
 */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
