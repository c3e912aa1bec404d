// The dashboard on PostgreSQL is one of a run's workers (its worker process joins the queue like any `worker`). Its
// machine dying mid-run (server and worker process killed outright, nothing released) loses and repeats nothing: the
// other workers take its chunks back once their lease (the TTL) runs out, the dashboard started again on the same
// database takes part again, and the run completes with one result per item, the counters the sums of the rows.
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/lib/db";
import { BUILD_TIMEOUT_MS, startAppServer, type AppServer } from "../support/app-server";
import { dashboardWorkerPid } from "../support/dashboard-worker";
import { usePgAppWorld } from "../support/pg-app-world";
import { pollUntil } from "../support/poll";
import { detachedRun, expectRowsAreTheTruth, stopWorker, watchRun, workerPool } from "../support/queue-run";

const TTL_S = 5;
const ITEMS = 20_000;
const CONCURRENCY = 150;
/** Each of the three workers (the dashboard's, w1, w2) takes a third of the run's concurrency. */
const PER_WORKER = 50;

describe("the dashboard's machine dying mid-run on PostgreSQL", () => {
  const world = usePgAppWorld("dashboard_killed", 1);
  let db: Db | undefined;
  const apps: AppServer[] = [];
  const workers = workerPool(() => world.url, TTL_S);

  afterAll(async () => {
    await workers.stopAll();
    for (const app of apps) await app.stop();
    await db?.$disconnect();
  }, 60_000);

  it("loses and repeats nothing when the dashboard's server and worker process are killed and it is started again", async () => {
    const env = { DATABASE_URL: world.url, SKILLBOARD_WORKER_TTL_S: String(TTL_S), SKILLBOARD_WORKER_CONCURRENCY: String(PER_WORKER) };
    const first = await startAppServer({ env });
    apps.push(first);
    // Its boot migrated the empty PostgreSQL database and seeded the demo.
    db = openDatabase(world.url);
    expect(await db.dataset.count()).toBeGreaterThan(0);
    const firstWorker = await dashboardWorkerPid(first.pid);

    const runId = await detachedRun({ db, url: world.url, dir: world.dir }, world.model.baseURL, ITEMS, CONCURRENCY);
    const cliWorkers = ["w1", "w2"].map((name) => workers.start(name, PER_WORKER));
    const started = Date.now();
    const { workersSeen } = await watchRun(db, runId, CONCURRENCY, (run) => run.nDone >= 3_000, 60_000);
    expect([...workersSeen].sort()).toEqual(["dashboard", "w1", "w2"]);
    const doomed = await db.runWorker.findFirstOrThrow({ where: { runId, name: "dashboard" } });
    expect(doomed.slots).toBe(PER_WORKER);

    // The machine dies: the worker process first (else it would see the server go and release its chunks), then the
    // server at once (before it could start another worker process, 1 s later).
    process.kill(firstWorker, "SIGKILL");
    await first.kill();
    expect(await pollUntil(async () => existsSync(`/proc/${firstWorker}`), (alive) => !alive, 10_000, 100)).toBe(false);
    const killedAt = (await db.run.findUniqueOrThrow({ where: { id: runId } })).nDone;
    expect(killedAt).toBeLessThan(ITEMS);
    // Slower answers while the dashboard boots again (5-10 s here), so the run is still going when it is back.
    world.model.setOptions({ latencyMs: 500 });
    const second = await startAppServer({ env });
    apps.push(second);
    await dashboardWorkerPid(second.pid);
    // Back on the run (so it was still running): the dead worker's slots are free again, and the new worker process
    // takes them and has items in flight (its heartbeat's gauges).
    const back = await pollUntil(
      () => db!.runWorker.findFirst({ where: { runId, name: "dashboard", NOT: { workerId: doomed.workerId } } }),
      (row) => (row?.inFlight ?? 0) > 0,
      60_000,
      200,
    );
    expect(back).toMatchObject({ name: "dashboard", slots: PER_WORKER });
    expect(back!.inFlight).toBeGreaterThan(0);
    world.model.setOptions({ latencyMs: 1 });

    await watchRun(db, runId, CONCURRENCY, (run) => run.status === "completed", 100_000);
    process.stderr.write(`dashboard-killed: 20,000 items in ${((Date.now() - started) / 1000).toFixed(1)} s, dashboard killed at ${killedAt}\n`);
    await expectRowsAreTheTruth(db, runId, ITEMS);
    expect(second.logs()).toMatch(new RegExp(`\\[dashboard\\] run ${runId}: taking part with ${PER_WORKER} of its ${CONCURRENCY} slots`));
    // The CLI workers lived through it all and stop cleanly.
    expect(await Promise.all(cliWorkers.map(stopWorker))).toEqual([0, 0]);
  }, BUILD_TIMEOUT_MS);
});
