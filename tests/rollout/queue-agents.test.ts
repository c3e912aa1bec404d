// Agent runs on PostgreSQL's queue, as on several machines: an agent's maxConcurrency caps what one worker takes of a
// run (its slots, not only its items in flight), so the run's other slots are left to other workers; and a worker on
// which a run cannot start (the agent's program is not installed there) leaves it to the others, says so once and tries
// again later and later, while its other runs go on.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { addSkillVersion, getRun, importDataset } from "@/lib/db";
import { createRunFor } from "@/lib/rollout";
import { startQueueWorker } from "@/lib/rollout/queue-worker";
import { RunSettingsSchema } from "@/lib/runs";
import { AGENTS_CONFIG, AGENTS_DIR } from "../support/agents";
import { spawnCli } from "../support/cli";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { pollUntil } from "../support/poll";
import { expectRowsAreTheTruth, workerPool } from "../support/queue-run";
import { createStoredRun, makeItems } from "../support/rollout-fixtures";
import { createTestDb, TEST_ENGINE, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;
const processes = workerPool(() => t.url, 5, () => t.dir);
let inProcess: ReturnType<typeof startQueueWorker>[] = [];
beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer({ latencyMs: 5, recordRequests: false });
});
afterEach(async () => {
  await processes.stopAll();
  await Promise.all(inProcess.map((worker) => worker.stop()));
  inProcess = [];
  vi.unstubAllEnvs();
  await server.close();
  await t.close();
});

/** An agents file of this test's own (this machine's, for the workers that read it). */
function agentsFile(name: string, agents: Record<string, unknown>): string {
  const path = join(t.dir, name);
  writeFileSync(path, JSON.stringify({ agents }));
  return path;
}

async function agentRun(agent: string, items: number, concurrency: number, configPath: string) {
  const dataset = await importDataset(t.db, { name: "d", fileName: "d.jsonl", format: "jsonl", hash: `h${Math.random()}`, items: makeItems(items) });
  const { version } = await addSkillVersion(t.db, { name: `s${Math.random()}`, content: "# Rules\n\nAnswer with the passage title." });
  return createRunFor(t.db, {
    datasetId: dataset.id,
    skillVersionId: version.id,
    config: { model: { backend: "agent", agent }, settings: RunSettingsSchema.parse({ concurrency }) },
    env: { ...process.env, SKILLBOARD_CONFIG: configPath },
  });
}

describe.runIf(TEST_ENGINE === "postgresql")("agent runs on PostgreSQL's queue", () => {
  it("caps the slots a worker takes by the agent's maxConcurrency: two workers each take part in both runs", async () => {
    // Each invocation takes ~0.3 s; at most 2 at once per worker and run, while each run allows 8 across workers.
    const config = agentsFile("agents.json", {
      slow: { command: ["sh", "-c", 'sleep 0.3; exec node "$0"', join(AGENTS_DIR, "answer-from-context.mjs")], maxConcurrency: 2 },
    });
    vi.stubEnv("SKILLBOARD_CONFIG", config);
    const runs = [await agentRun("slow", 16, 8, config), await agentRun("slow", 16, 8, config)];
    // 4 items at once each: with 8 slots taken for 2 agents, the first worker's concurrency went to one run only.
    for (const name of ["w1", "w2"]) inProcess.push(startQueueWorker({ db: t.db, name, concurrency: 4, pollMs: 200, ttlSeconds: 5, dataDir: t.dir, log: () => undefined }));
    const seen = new Map<number, Map<string, number>>(runs.map((run) => [run.id, new Map()]));
    const done = await pollUntil(
      async () => {
        for (const row of await t.db.runWorker.findMany({ where: { runId: { in: runs.map((run) => run.id) } } })) {
          const slots = seen.get(row.runId)!;
          slots.set(row.name, Math.max(slots.get(row.name) ?? 0, row.slots));
        }
        return Promise.all(runs.map((run) => getRun(t.db, run.id)));
      },
      (now) => now.every((run) => run.status === "completed"),
      60_000,
      50,
    );
    expect(done.map((run) => run.status)).toEqual(["completed", "completed"]);
    for (const run of runs) {
      // Both workers took part in the run, each with no more slots than the agent's cap.
      expect(Object.fromEntries(seen.get(run.id)!)).toEqual({ w1: 2, w2: 2 });
      const ranBy = await t.db.runItemExec.groupBy({ by: ["workerName"], where: { runId: run.id }, _count: true });
      expect(ranBy.map((row) => row.workerName).sort()).toEqual(["w1", "w2"]);
      await expectRowsAreTheTruth(t.db, run.id, 16);
    }
  }, 90_000);

  it("backs off from a run whose agent is not installed on that worker, saying so once, while its other runs go on", async () => {
    const agentRunId = (await agentRun("fake", 12, 4, AGENTS_CONFIG)).id;
    const chatRun = await createStoredRun(t.db, { items: makeItems(60), baseURL: server.baseURL, settings: { concurrency: 4 } });
    // This machine's agents file names the same agent, but its program is not installed here.
    const missing = agentsFile("missing.json", { fake: { command: ["skillboard-no-such-agent-program"] } });
    const broken = processes.start("broken", 8, { env: { SKILLBOARD_CONFIG: missing } });
    const error = `agent "fake": its program "skillboard-no-such-agent-program" is not installed on this server`;
    await pollUntil(async () => broken.log(), (log) => log.includes(error), 60_000);
    const firstSeen = Date.now();
    expect((await pollUntil(() => getRun(t.db, chatRun.id), (run) => run.status === "completed", 60_000)).status).toBe("completed");
    await expectRowsAreTheTruth(t.db, chatRun.id, 60);
    // Over 6.5 s it tried at about 0, 1 and 3 s (then 7): the error once, then when the next try is.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstSeen + 6_500 - Date.now())));
    const lines = broken.log().split("\n").filter((line) => line.includes(`run ${agentRunId}:`));
    process.stderr.write(`queue-agents: the broken worker's lines about the run over 6.5 s:\n${lines.join("\n")}\n`);
    expect(lines.filter((line) => line.includes(error))).toHaveLength(1);
    expect(lines[0]).toContain("cannot take part");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(4);
    expect(lines.slice(1).every((line) => /still failing, next try in \d+ s/.test(line))).toBe(true);
    // It took nothing of the run: no item failed for a program missing on one machine, no slot held.
    expect(await getRun(t.db, agentRunId)).toMatchObject({ status: "queued", nDone: 0 });
    expect(await t.db.runWorker.count({ where: { runId: agentRunId } })).toBe(0);

    // A worker where the agent is installed runs it, every item by that worker.
    processes.start("equipped", 4, { env: { SKILLBOARD_CONFIG: AGENTS_CONFIG } });
    expect((await pollUntil(() => getRun(t.db, agentRunId), (run) => run.status === "completed", 60_000)).status).toBe("completed");
    await expectRowsAreTheTruth(t.db, agentRunId, 12);
    const ranBy = await t.db.runItemExec.groupBy({ by: ["workerName"], where: { runId: agentRunId }, _count: true });
    expect(ranBy.map((row) => [row.workerName, row._count])).toEqual([["equipped", 12]]);
  }, 120_000);

  it("tells a CLI run that cannot take part on this machine why it waits, on stderr", async () => {
    const agentRunId = (await agentRun("fake", 4, 2, AGENTS_CONFIG)).id;
    const missing = agentsFile("missing.json", { fake: { command: ["skillboard-no-such-agent-program"] } });
    const cli = spawnCli(["run", "--resume", String(agentRunId)], { databaseUrl: t.url, env: { SKILLBOARD_CONFIG: missing, SKILLBOARD_DATA_DIR: t.dir } });
    let stdout = "";
    let stderr = "";
    cli.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    cli.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    try {
      const error = `run ${agentRunId}: cannot take part: agent "fake": its program "skillboard-no-such-agent-program" is not installed on this server`;
      expect(await pollUntil(async () => stderr, (text) => text.includes(error), 60_000)).toContain(error);
      // Said as a progress line, not as data: nothing on stdout while it waits.
      expect(stdout).toBe("");
      expect(await getRun(t.db, agentRunId)).toMatchObject({ nDone: 0 });
    } finally {
      cli.kill("SIGINT");
      await exited;
    }
  }, 90_000);
});
