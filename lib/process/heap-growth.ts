import { setFlagsFromString } from "node:v8";

/**
 * Lets V8's heap grow by at most half of what survived the last full collection, where V8 lets it grow up to 4×. Both
 * the CLI (lib/cli/main.ts) and the dashboard server (instrumentation.ts) allocate fast and keep little, so the heap
 * was sized far past what they need:
 * - a 20,000-item CLI run (prompts, request and response bodies, rows; ~70 MB live) peaked at 262 MB of RSS instead of
 *   436 MB (the dataset already stored), at the same CPU;
 * - the server's downloads of a 100,000-item run (`npm run bench:export`, one page of rows live) peaked at 308–344 MB
 *   from 300 MB once warm, instead of 491–545 MB from 375–405 MB, in the same download times; its live polls during
 *   a 20,000-item run (`npm run bench:dashboard`) kept their p95 (64.9 and 69.3 ms over two sets of three runs).
 * V8 takes this flag after start, so it is set from inside.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString("--heap-growing-percent=50");
}
