// `worker` on SQLite: a headless process that executes the queued runs of the database until it is stopped; SIGTERM
// releases the run under way (still "running", its finished items kept) for the next worker, which completes it.
import { once } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getRun } from "@/lib/db";
import { runCli, spawnCli } from "../support/cli";
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

function startWorker(name: string, args: string[] = [], env: Record<string, string> = {}) {
  const child = spawnCli(["worker", "--name", name, ...args], { databaseUrl: t.url, env: { OPENAI_API_KEY: "test-key", ...env } });
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

  it("refuses a drain time that is not a whole number of seconds, naming the option or the variable; the option wins", async () => {
    const refused: { args: string[]; env: Record<string, string>; message: string }[] = [
      { args: ["--drain-seconds=-1"], env: {}, message: "error: worker: --drain-seconds must be 0 or more" },
      { args: ["--drain-seconds", "soon"], env: {}, message: 'error: --drain-seconds: expected a whole number, got "soon"' },
      { args: [], env: { SKILLBOARD_WORKER_DRAIN_S: "20s" }, message: 'error: worker: SKILLBOARD_WORKER_DRAIN_S must be a whole number of seconds, 0 or more; got "20s"' },
    ];
    for (const { args, env, message } of refused) {
      const result = await runCli(["worker", ...args], { databaseUrl: t.url, env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim()).toBe(message);
      expect(result.stdout).toBe("");
    }
    // The option given, the variable is not even read.
    const worker = startWorker("w1", ["--drain-seconds", "5"], { SKILLBOARD_WORKER_DRAIN_S: "20s" });
    await pollUntil(async () => worker.stderr(), (text) => text.includes("[w1] worker "));
    worker.child.kill("SIGTERM");
    expect(await exited(worker.child)).toBe(0);
  }, 60_000);
});
