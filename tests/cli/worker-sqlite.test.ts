// `worker` on SQLite: a headless process that executes the queued runs of the database until it is stopped; SIGTERM
// releases the run under way (still "running", its finished items kept) for the next worker, which completes it.
import { once } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getRun } from "@/lib/db";
import { spawnCli } from "../support/cli";
import { pollUntil } from "../support/poll";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { createStoredRun, makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;
beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer({ latencyMs: 40 });
});
afterEach(async () => {
  await server.close();
  await t.close();
});

/** Resolves with the exit code; at once for a child that already exited. */
function exited(child: ReturnType<typeof spawnCli>): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return once(child, "exit").then(([code]) => code as number | null);
}

function startWorker(name: string) {
  const child = spawnCli(["worker", "--name", name], { databaseUrl: t.url, env: { OPENAI_API_KEY: "test-key" } });
  let stderr = "";
  let stdout = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  return { child, stderr: () => stderr, stdout: () => stdout };
}

describe("worker (SQLite)", () => {
  it("executes a queued run; on SIGTERM releases the run under way, which the next worker completes", async () => {
    const run = await createStoredRun(t.db, { items: makeItems(200), baseURL: server.baseURL, settings: { concurrency: 4 } });
    const first = startWorker("w1");
    // Stopped only once it handles SIGTERM (it says so when it does).
    await pollUntil(async () => first.stderr(), (text) => text.includes("[w1] worker "));
    const partway = await pollUntil(() => getRun(t.db, run.id), (row) => row.nDone >= 20);
    expect(partway.status).toBe("running");
    first.child.kill("SIGTERM");
    expect(await exited(first.child)).toBe(0);
    expect(first.stderr()).toContain("[w1] stopping (SIGTERM)");
    expect(first.stdout()).toBe("");
    const released = await getRun(t.db, run.id);
    expect(released).toMatchObject({ status: "running", workerId: null });
    expect(released.nDone).toBeGreaterThanOrEqual(20);
    expect(released.nDone).toBeLessThan(200);

    const second = startWorker("w2");
    const done = await pollUntil(() => getRun(t.db, run.id), (row) => row.status === "completed");
    expect(done.nDone).toBe(200);
    // Nothing ran twice: one result per item, and the model was asked once per item.
    expect(await t.db.runResult.count({ where: { runId: run.id } })).toBe(200);
    expect(server.stats().requests).toBeLessThanOrEqual(200 + 4);
    second.child.kill("SIGTERM");
    await exited(second.child);
  }, 90_000);
});
