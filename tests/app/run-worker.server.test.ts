// The production server executes runs itself, from the database: a run a crashed process left
// "running" is resumed without anyone asking, keeping its finished items; a queued run is picked up.
import { describe, expect, it } from "vitest";
import { createRunFor, executeRun } from "@/lib/rollout";
import { RunSettingsSchema } from "@/lib/runs";
import { withAppServer } from "../support/app-server-hooks";

const app = withAppServer();

async function liveStatus(runId: number): Promise<{ status: string; nDone: number }> {
  const response = await fetch(`${app.server.baseURL}/api/runs/${runId}/live`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { run: { status: string }; stats: { done: number } };
  return { status: body.run.status, nDone: body.stats.done };
}

async function waitUntilCompleted(runId: number): Promise<{ status: string; nDone: number }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const run = await liveStatus(runId);
    if (run.status === "completed" || Date.now() > deadline) return run;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// The demo (dataset 1, skill "searchqa" v1 and v2) is seeded when the server first starts.
const demoRun = (limit: number, leaseFor?: string) =>
  createRunFor(app.db, {
    datasetId: 1,
    skillVersionId: 2,
    config: { model: { backend: "baseline" }, settings: RunSettingsSchema.parse({ limit }) },
    leaseFor,
  });

describe("the server's run worker", () => {
  it("resumes a run a crashed process left running, running only its unfinished items", async () => {
    // A crashed process on another machine: it took the run at once, finished 20 items, 8 of which we then "lose".
    const run = await demoRun(20, "elsewhere:1:gone");
    await executeRun(app.db, run.id, { workerId: "elsewhere:1:gone" });
    const lost = (await app.db.runResult.findMany({ where: { runId: run.id, seq: { gt: 12 } }, select: { itemId: true } })).map((r) => r.itemId);
    await app.db.runItemConversation.deleteMany({ where: { runId: run.id, itemId: { in: lost } } });
    await app.db.runResult.deleteMany({ where: { runId: run.id, itemId: { in: lost } } });
    const kept = await app.db.runResult.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
    await app.db.run.update({
      where: { id: run.id },
      data: { status: "running", workerId: "elsewhere:1:gone", heartbeatAt: new Date(Date.now() - 120_000), nDone: 12 },
    });

    const done = await waitUntilCompleted(run.id);
    expect(done).toMatchObject({ status: "completed", nDone: 20 });
    const rows = await app.db.runResult.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
    expect(rows).toHaveLength(20);
    expect(rows.slice(0, 12)).toEqual(kept);
  });

  it("picks up a queued run at once", async () => {
    const run = await demoRun(50);
    expect((await waitUntilCompleted(run.id)).nDone).toBe(50);
  });
});
