/**
 * How long the event loop went without running a 5 ms timer while `work` ran, less those 5 ms: what a server doing
 * `work` would have kept every other request waiting at worst. Returns work's result beside it.
 */
export async function measureLongestStall<T>(work: () => Promise<T>): Promise<{ result: T; longestStallMs: number }> {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, longestStallMs: Math.max(longest, performance.now() - last - 5) };
  } finally {
    clearInterval(timer);
  }
}
