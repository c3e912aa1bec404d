/**
 * How long a following item table (the first page of all items, mid-run) waits after reloading before it reloads
 * again for new results. A reload renders the whole run page on the server (the explorer's counts over every result,
 * the live data, the table) and again in the browser: ~60 ms for a 20,000-item run on an idle two-core machine, 150-400
 * ms on one that is also running it at full speed. Reloading every second then kept the server busy often enough to
 * hold the live poll up (p95 128-203 ms against 43-86 ms with no run page open; `npm run bench:dashboard`).
 *
 * So the wait is at least a second, and at least FOLLOW_COST_FACTOR times what the last reload took, so that reloads
 * take no more than about a twentieth of the time however slow they get; at most FOLLOW_MAX_DELAY_MS, so that the
 * table never lags far behind the live panel above it. A small run on an idle server still follows every second.
 */
export const FOLLOW_MIN_DELAY_MS = 1_000;
export const FOLLOW_MAX_DELAY_MS = 10_000;
export const FOLLOW_COST_FACTOR = 20;

/** The wait before the next reload for new results, given how long the last one took (ms). */
export function followReloadDelayMs(lastReloadMs: number): number {
  const wait = Number.isFinite(lastReloadMs) && lastReloadMs > 0 ? lastReloadMs * FOLLOW_COST_FACTOR : 0;
  return Math.round(Math.min(FOLLOW_MAX_DELAY_MS, Math.max(FOLLOW_MIN_DELAY_MS, wait)));
}
