/**
 * Soak test: `npm run soak [-- --items N --kills K --runs R --seed S --concurrency C --max-seconds T]`. A run of N items
 * (default 3,000) executed by the production server against the test model server's seeded mix of faults, the server
 * killed with SIGKILL K times (default 4) at seeded random moments and restarted, then R more runs (default 3) for its
 * memory. Prints the figures; exits 1 if any check failed (see tests/support/soak.ts). Loopback only; needs the
 * production build (made when missing or stale, as the browser tests do).
 */
import { parseArgs } from "node:util";
import { DEFAULT_SOAK, runSoak } from "../tests/support/soak";

const { values } = parseArgs({
  options: {
    items: { type: "string" }, kills: { type: "string" }, runs: { type: "string" }, seed: { type: "string" },
    concurrency: { type: "string" }, "latency-ms": { type: "string" }, "max-seconds": { type: "string" },
  },
});
const number = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));

const report = await runSoak({
  items: number(values.items, DEFAULT_SOAK.items),
  kills: number(values.kills, DEFAULT_SOAK.kills),
  extraRuns: number(values.runs, DEFAULT_SOAK.extraRuns),
  seed: number(values.seed, DEFAULT_SOAK.seed),
  concurrency: number(values.concurrency, DEFAULT_SOAK.concurrency),
  latencyMs: number(values["latency-ms"], DEFAULT_SOAK.latencyMs),
  maxSeconds: number(values["max-seconds"], DEFAULT_SOAK.maxSeconds),
  log: (line) => process.stderr.write(`soak: ${line}\n`),
});
const statuses = Object.entries(report.modelRequests.byStatus).map(([status, count]) => `${status}: ${count}`).join(", ");
console.log(`soak: ${report.seconds.toFixed(0)} s; ${report.modelRequests.total} model requests (${statuses}; hangs and resets have no status)`);
console.log(`soak: killed with SIGKILL at ${report.killedAt.join(", ")} stored results`);
for (const run of report.runs) {
  console.log(`soak: run ${run.runId}: ${run.results} results in ${run.seconds} s ${JSON.stringify(run.byStatus)}; server RSS ${run.rssFloorMb}–${run.rssPeakMb} MB`);
}
console.log(report.problems.length === 0 ? "soak: every check passed" : `soak: FAILED\n${report.problems.map((p) => `  - ${p}`).join("\n")}`);
process.exitCode = report.problems.length === 0 ? 0 : 1;
