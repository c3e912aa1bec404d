// PostgreSQL's queue takes over a run left "running" under a process's lease (run-lease.ts) whose process is gone: a
// version before the queue, or any process that died holding the run or released it. Exactly one worker turns it into
// the queue's run, its stored results stay, and it completes with every result once; a run a live process holds is left
// to that process.
import { hostname } from "node:os";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getRun } from "@/lib/db";
import { executeRun } from "@/lib/rollout";
import { startQueueWorker } from "@/lib/rollout/queue-worker";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { pollUntil } from "../support/poll";
import { expectRowsAreTheTruth } from "../support/queue-run";
import { createStoredRun, makeItems, storedResults } from "../support/rollout-fixtures";
import { createTestDb, TEST_ENGINE, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;
let workers: ReturnType<typeof startQueueWorker>[] = [];
beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer({ latencyMs: 5, recordRequests: false });
});
afterEach(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  workers = [];
  await server.close();
  await t.close();
});

describe.runIf(TEST_ENGINE === "postgresql")("a run a dead process left running, on PostgreSQL's queue", () => {
  it("is taken over by exactly one worker and completes with every result once; a run a live process holds is left alone", async () => {
    const settings = { concurrency: 8 };
    // Killed while it ran the run with the single-process executor, on this machine: 30 results stored, its pid is free
    // (above the kernel's pid_max).
    const killedHere = `${hostname()}:4194999:old`;
    const partial = await createStoredRun(t.db, { items: makeItems(120), baseURL: server.baseURL, settings });
    const pause = new AbortController();
    let stored = 0;
    const released = await executeRun(t.db, partial.id, {
      workerId: killedHere,
      signal: pause.signal,
      onEvent: (event) => {
        if (event.kind === "item" && ++stored === 30) pause.abort("shutdown");
      },
    });
    expect(released).toMatchObject({ status: "running", workerId: null });
    await t.db.run.update({ where: { id: partial.id }, data: { workerId: killedHere, heartbeatAt: new Date() } });
    const before = await storedResults(t.db, partial.id);
    expect(before.length).toBeGreaterThanOrEqual(30);
    // On another machine, silent for two minutes (its process table cannot be read from here).
    const silentFar = await createStoredRun(t.db, { items: makeItems(80), baseURL: server.baseURL, settings, leaseFor: "elsewhere:4242:old" });
    await t.db.run.update({ where: { id: silentFar.id }, data: { heartbeatAt: new Date(Date.now() - 120_000) } });
    // Released by a process that stopped (an older worker's SIGTERM): "running", held by nobody.
    const releasedRun = await createStoredRun(t.db, { items: makeItems(50), baseURL: server.baseURL, settings, leaseFor: "elsewhere:4343:old" });
    await t.db.run.update({ where: { id: releasedRun.id }, data: { workerId: null } });
    // Held by a live process: this one (an optimisation's own run would be excluded anyway; this one is not one).
    const held = await createStoredRun(t.db, { items: makeItems(40), baseURL: server.baseURL, settings, leaseFor: `${hostname()}:${process.pid}:live` });

    const logs: string[] = [];
    for (const name of ["w1", "w2"]) workers.push(startQueueWorker({ db: t.db, name, concurrency: 16, pollMs: 200, ttlSeconds: 5, log: (line) => logs.push(`${name} ${line}`) }));
    const ids = [partial.id, silentFar.id, releasedRun.id];
    const done = await pollUntil(() => Promise.all(ids.map((id) => getRun(t.db, id))), (runs) => runs.every((run) => run.status === "completed"), 60_000);
    expect(done.map((run) => run.status)).toEqual(["completed", "completed", "completed"]);

    await expectRowsAreTheTruth(t.db, partial.id, 120);
    await expectRowsAreTheTruth(t.db, silentFar.id, 80);
    await expectRowsAreTheTruth(t.db, releasedRun.id, 50);
    // What the dead process stored stays as it was (same rows, same place in the order).
    const after = new Map((await storedResults(t.db, partial.id)).map((row) => [row.itemId, row]));
    for (const row of before) expect(after.get(row.itemId)).toMatchObject({ seq: row.seq, response: row.response });
    // Each was converted once, by one of the two workers, under the run's row lock.
    const takeovers = (id: number) => logs.filter((line) => line.includes(`run ${id}: taken over`));
    expect(takeovers(partial.id)).toHaveLength(1);
    expect(takeovers(partial.id)[0]).toContain(`from the process ${killedHere}, whose lease is dead`);
    expect(takeovers(silentFar.id)).toHaveLength(1);
    expect(takeovers(releasedRun.id)).toHaveLength(1);
    expect(takeovers(releasedRun.id)[0]).toContain("taken over from no process");

    // The live process's run: untouched, whoever polled meanwhile.
    expect(await getRun(t.db, held.id)).toMatchObject({ status: "running", workerId: `${hostname()}:${process.pid}:live`, nDone: 0 });
    expect(await t.db.runResult.count({ where: { runId: held.id } })).toBe(0);
    expect(await t.db.runWorker.count({ where: { runId: held.id } })).toBe(0);
    expect(logs.filter((line) => line.includes(`run ${held.id}:`))).toEqual([]);
  }, 90_000);
});
