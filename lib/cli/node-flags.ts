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
 */
export const CLI_NODE_FLAGS = ["--max-semi-space-size=32"] as const;
