// The dashboard's worker process, as a user relies on it: runs execute in a child of the server (so a large run does
// not slow the pages), a worker that dies is started again and the runs go on, and a server killed outright does not
// leave its worker behind.
import { existsSync } from "node:fs";
import { getPriority } from "node:os";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db";
import { createRunFor } from "@/lib/rollout";
import { RunSettingsSchema } from "@/lib/runs";
import { BUILD_TIMEOUT_MS, startAppServer } from "../support/app-server";
import { dashboardWorkerPid } from "../support/dashboard-worker";
import { pollUntil } from "../support/poll";

describe("the dashboard's worker process", () => {
  it("executes runs outside the server, is started again when it dies, and goes when the server is killed", async () => {
    const server = await startAppServer();
    const db = openDatabase(server.databaseUrl);
    try {
      const first = await dashboardWorkerPid(server.pid);
      // Below the server's priority (SKILLBOARD_WORKER_NICE, default 10): a run at full speed yields the CPU to the pages.
      expect(getPriority(first) - getPriority(server.pid)).toBe(10);
      // The demo (dataset 1, skill "searchqa" v2) on the offline baseline, queued as the New run form queues it.
      const queue = (limit: number) =>
        createRunFor(db, { datasetId: 1, skillVersionId: 2, config: { model: { backend: "baseline" }, settings: RunSettingsSchema.parse({ limit }) } });
      const run = await queue(10);
      const done = await pollUntil(() => db.run.findUniqueOrThrow({ where: { id: run.id } }), (row) => row.status === "completed", 60_000, 200);
      expect(done).toMatchObject({ status: "completed", nDone: 10 });
      // The worker process executed it (its log lines carry its name), not the server.
      expect(server.logs()).toContain(`[dashboard] worker ${first} started`);
      expect(server.logs()).toContain(`[dashboard] run ${run.id}: completed`);

      // Killed outright: the server starts another, which takes the next run.
      process.kill(first, "SIGKILL");
      const second = await dashboardWorkerPid(server.pid, first);
      expect(second).not.toBe(first);
      const next = await queue(5);
      expect(await pollUntil(() => db.run.findUniqueOrThrow({ where: { id: next.id } }), (row) => row.status === "completed", 60_000, 200)).toMatchObject({ nDone: 5 });
      expect(server.logs()).toContain("the worker process ended");

      // The server killed outright (no cleanup in it): its worker notices the closed channel and exits too.
      await server.kill();
      const gone = await pollUntil(async () => existsSync(`/proc/${second}`), (alive) => !alive, 15_000, 200);
      expect(gone).toBe(false);
    } finally {
      await db.$disconnect();
      await server.stop();
    }
  }, BUILD_TIMEOUT_MS);
});
