/**
 * The V8 flags every CLI process runs with: `npm run -s cli` (package.json), `npx skillboard` (scripts/cli.mjs's
 * `#!/usr/bin/env -S node …` line) and the dashboard's worker process (worker-process.ts). V8 reads them only at start,
 * so they cannot be set from inside (flags it also takes later are set in lib/cli/main.ts, which holds however the CLI is
 * started). tests/cli/node-flags.test.ts checks that each of the three starts passes them.
 *
 * A young generation of 2 × 32 MB instead of V8's 2 × 16 MB: a run's requests in flight (256 of them at 2,000 items a
 * second, each alive ~0.1 s) outlived two scavenges of the smaller one, so most were copied twice, promoted, and left
 * for the old generation's collections (~20 % of the CPU of a 20,000-item run went to the collector). Three
 * alternating runs each, 20,000 / 256: user+sys 12.02 / 11.52 / 11.94 s → 10.27 / 11.11 / 10.38 s; peak RSS
 * 203–211 → 234–239 MB (2,000 / 64: 160–166 → 188–190 MB). `skill list` allocates too little to notice (~90 MB both).
 *
 * And one of at least 2 × 16 MB from the start, where V8 starts at 1 MB and doubles it scavenge by scavenge: start-up
 * and the dataset import scavenged a dozen times on the way up, each copying what a batch of parsed items kept alive.
 * Alternating runs: 20,000 / 256, four pairs, time to the first request 1.76–1.81 → 1.63–1.69 s, peak RSS 222–226 →
 * 219–221 MB, CPU within noise (mean 10.29 → 10.48 s); 2,000 / 64, eight pairs, CPU 2.35–2.51 → 2.24–2.39 s (lower in
 * each pair), first request 0.64–0.70 → 0.63–0.68 s. `skill list`: 263–270 → 272–275 ms, 84.4–84.9 → 86.9 MB.
 *
 * And no allocation-site pretenuring: V8 allocates straight into the old generation the objects of a site whose objects
 * mostly outlive a scavenge. A run's per-request objects do outlive one (they are alive for the call's ~50-100 ms), and
 * die soon after, so pretenured they filled the old generation with garbage: a 20,000 / 256 / 50 run made 27-29
 * mark-compacts (--trace-gc; one every ~0.3 s) and 16-18 without, with 62-64 → 67-71 scavenges. Four alternating pairs:
 * user+sys 11.40 / 11.92 / 12.09 / 11.55 s → 9.19 / 10.15 / 10.78 / 9.69 s (−15 % on the mean, lower in every pair),
 * peak RSS 226-238 → 221-226 MB. 2,000 / 64 / 100, four pairs: CPU, first request, window and RSS unchanged (within
 * ±0.1 s, ±0.02 s, ±0.02 s, ±2 MB).
 */
export const CLI_NODE_FLAGS = ["--max-semi-space-size=32", "--min-semi-space-size=16", "--no-allocation-site-pretenuring"] as const;
