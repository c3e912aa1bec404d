// A small configuration of `npm run soak` (tests/support/soak.ts): 300 items run by the production server against the
// test model server's seeded faults, the server SIGKILLed twice and restarted, then two more runs for its memory.
import { expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuild } from "../support/app-server";
import { runSoak } from "../support/soak";

it("ends every run with exactly one result per item, counters equal to the rows, no unhandled rejection, flat memory", async () => {
  await ensureBuild();
  const report = await runSoak({ items: 300, kills: 2, extraRuns: 2, seed: 11, concurrency: 16, latencyMs: 10, maxSeconds: 120 });
  expect(report.problems).toEqual([]);
  expect(report.killedAt).toHaveLength(2);
  expect(report.runs.map((run) => run.results)).toEqual([300, 300, 300]);
  // The faults really happened: rate limits, server errors and the rest were answered and retried.
  expect(report.modelRequests.byStatus[429]).toBeGreaterThan(0);
  expect(report.modelRequests.byStatus[500]).toBeGreaterThan(0);
}, BUILD_TIMEOUT_MS + 180_000);
