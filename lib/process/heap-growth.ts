import { setFlagsFromString } from "node:v8";

/**
 * Lets V8's heap grow by at most `percent` % of what survived the last full collection, where V8 lets it grow up to 4×.
 * Both the CLI (lib/cli/main.ts) and the dashboard server (instrumentation.ts) allocate fast and keep little, so the
 * heap was sized far past what they need (both at 50 %, when the cap was set):
 * - a 20,000-item CLI run (prompts, request and response bodies, rows; ~70 MB live) peaked at 262 MB of RSS instead of
 *   436 MB (the dataset already stored), at the same CPU;
 * - the server's downloads of a 100,000-item run (`npm run bench:export`, one page of rows live) peaked at 308–344 MB
 *   from 300 MB once warm, instead of 491–545 MB from 375–405 MB, in the same download times; its live polls during
 *   a 20,000-item run (`npm run bench:dashboard`) kept their p95 (64.9 and 69.3 ms over two sets of three runs).
 * V8 takes this flag after start, so it is set from inside.
 */
export function limitHeapGrowth(percent: number): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** The dashboard server's bound: the figures above. */
export const SERVER_HEAP_GROWING_PERCENT = 50;

/**
 * The CLI's (and so the dashboard's worker process's) bound. At 50 %, a 20,000-item run's old generation (~30 MB live
 * after each full collection: the dataset page and the requests in flight) was collected every ~0.5 s, 17 times; at
 * 75 % less often. 20,000 / 256 / 50 (stub), seven alternating pairs through scripts/cli.mjs: user+sys 10.79 / 9.84 /
 * 10.36 / 9.55 / 9.74 / 9.70 / 9.41 s → 8.99 / 9.23 / 8.48 / 9.47 / 9.38 / 9.15 / 8.81 s (−0.8 s on the mean, lower in
 * every pair); peak RSS 215–220 → 223–230 MB, and 2,000 / 64 / 100's 179–183 → 188 MB, so the 20,000-item run's peak
 * stays ~1.2× the 2,000-item run's. At 100 % the CPU was no lower (8.62–9.42 s) and the peak reached 240 MB.
 */
export const CLI_HEAP_GROWING_PERCENT = 75;
