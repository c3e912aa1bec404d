import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getSkillVersion, listOptimizationSteps, listOptimizerCalls, openDatabase } from "@/lib/db";
import { runCli, spawnCli } from "../support/cli";
import { startFakeOpenAIServer, type FakeChatRequest, type FakeOpenAIServer, type RecordedRequest } from "../support/fake-openai-server";
import { optimizerAnswer, optimizerRoleOf } from "../support/fake-optimizer";
import { SMALL_LOOP, writeOptimizationFiles } from "../support/optimize-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let server: FakeOpenAIServer;
let dir: string;
let files: ReturnType<typeof writeOptimizationFiles>;
const env = { OPENAI_API_KEY: "sk-test" };
const databases: TestDatabase[] = [];

beforeAll(async () => {
  server = await startFakeOpenAIServer({ answer: (req) => optimizerAnswer(req) });
  dir = mkdtempSync(join(tmpdir(), "skillboard-optimize-"));
  // Twelve topics, many lures and one or two edits a step: the gate sees gains and ties over several steps.
  files = writeOptimizationFiles(dir, { train: 32, val: 24, test: 12, topics: 12, lureRate: 0.6 });
});
afterEach(() => server.setOptions({ latencyMs: 0, faults: undefined }));
afterAll(async () => {
  await server.close();
  await Promise.all(databases.map((database) => database.close()));
  rmSync(dir, { recursive: true, force: true });
});

function freshDb(): TestDatabase {
  const database = createTestDb();
  databases.push(database);
  return database;
}

function startArgs(extra: string[] = []) {
  return ["optimize", "start", "--train", files.train, "--val", files.val, "--test", files.test, "--skill", files.skill, "--base-url", server.baseURL, "--model", "fake", ...SMALL_LOOP, "--batch-size", "6", "--learning-rate", "2", "--min-learning-rate", "1", ...extra];
}

const isOptimizerRequest = (request: RecordedRequest) => optimizerRoleOf(request as unknown as FakeChatRequest) !== undefined;

/** What an optimisation decided, comparable across databases: each stage's action and gate, and the skills it went on with. */
async function fingerprint(url: string, id: number) {
  const db = openDatabase(url);
  try {
    const stages = await listOptimizationSteps(db, id);
    return await Promise.all(
      stages.map(async (stage) => ({
        key: stage.key,
        action: stage.action,
        gate: stage.gateJson,
        record: JSON.parse(stage.recordJson, (key, value) => (key.endsWith("_s") || key === "timing" ? undefined : value)) as unknown,
        current: stage.currentVersionId === null ? null : (await getSkillVersion(db, stage.currentVersionId)).content,
        candidate: stage.candidateVersionId === null ? null : (await getSkillVersion(db, stage.candidateVersionId)).content,
      })),
    );
  } finally {
    await db.$disconnect();
  }
}

async function storedCalls(url: string, id: number) {
  const db = openDatabase(url);
  try {
    return await listOptimizerCalls(db, id);
  } finally {
    await db.$disconnect();
  }
}

function summaryOf(stdout: string) {
  const lines = stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown> & { optimization_id: number; status: string };
}

let reference: { url: string; id: number; summary: ReturnType<typeof summaryOf>; optimizerRequests: number };

describe("optimize start", () => {
  it("runs the loop to the end: first stderr line, progress per step, one JSON line on stdout", async () => {
    const database = freshDb();
    server.requests.length = 0;
    const result = await runCli(startArgs(), { databaseUrl: database.url, env });
    expect(result.stderr.split("\n")[0]).toMatch(/^optimization \d+ started$/);
    expect(result.code, result.stderr).toBe(0);
    const summary = summaryOf(result.stdout);
    expect(summary).toMatchObject({ status: "completed", steps: 12 });
    expect(summary.best_val as number).toBeGreaterThan(summary.initial_val as number);
    expect(Object.keys(summary)).toEqual(["optimization_id", "status", "steps", "accepted", "initial_val", "best_val", "best_version_id", "test", "target_calls", "optimizer_tokens", "wall_s"]);
    expect(result.stderr).toMatch(/\[optimize\] epoch 1 step 1\/12 val \d\.\d{3} → \d\.\d{3} (accepted|rejected)/);
    const stages = await fingerprint(database.url, summary.optimization_id);
    const actions = new Set(stages.map((stage) => stage.action));
    // Real decisions: gains accepted, ties or losses rejected.
    expect(actions.has("accept_new_best")).toBe(true);
    expect(actions.has("reject")).toBe(true);
    expect(stages.map((stage) => stage.key)).toEqual(expect.arrayContaining(["baseline", "step:0001", "slow:01", "meta:01", "slow:02", "meta:02", "final"]));
    reference = { url: database.url, id: summary.optimization_id, summary, optimizerRequests: server.requests.filter(isOptimizerRequest).length };
    // Every finished optimizer call is stored once, with its prompt and reply.
    const calls = await storedCalls(database.url, summary.optimization_id);
    expect(calls.length).toBe(reference.optimizerRequests);
    expect(calls.every((call) => call.user.length > 0 && call.system.length > 0)).toBe(true);
  }, 120_000);

  it("is deterministic: the same settings give the same skills and decisions", async () => {
    const database = freshDb();
    const result = await runCli(startArgs(), { databaseUrl: database.url, env });
    expect(result.code, result.stderr).toBe(0);
    const summary = summaryOf(result.stdout);
    expect(await fingerprint(database.url, summary.optimization_id)).toEqual(await fingerprint(reference.url, reference.id));
    expect({ ...summary, wall_s: 0 }).toEqual({ ...reference.summary, wall_s: 0 });
  }, 120_000);

  for (const killAfter of [3, 14]) {
    it(`resumes after kill -9 (after ${killAfter} optimizer calls) without repeating a finished call`, async () => {
      const database = freshDb();
      server.setOptions({ latencyMs: 40 });
      server.requests.length = 0;
      const child = spawnCli(startArgs(), { databaseUrl: database.url, env });
      let stderr = "";
      child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise((resolve) => child.on("exit", resolve));
      await expect.poll(() => server.requests.filter(isOptimizerRequest).length, { timeout: 60_000, interval: 5 }).toBeGreaterThanOrEqual(killAfter);
      child.kill("SIGKILL");
      await exited;
      const id = Number(/optimization (\d+) started/.exec(stderr)![1]);
      const storedBefore = (await storedCalls(database.url, id)).length;
      const servedBefore = server.requests.filter(isOptimizerRequest).length;

      server.setOptions({ latencyMs: 0 });
      const resumed = await runCli(["optimize", "start", "--resume", String(id)], { databaseUrl: database.url, env });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(summaryOf(resumed.stdout).status).toBe("completed");
      expect(await fingerprint(database.url, id)).toEqual(await fingerprint(reference.url, reference.id));
      const servedAfter = server.requests.filter(isOptimizerRequest).length - servedBefore;
      // Only calls that had not finished when the process died are asked again.
      expect(servedAfter).toBe(reference.optimizerRequests - storedBefore);
      expect(storedBefore).toBeGreaterThanOrEqual(1);
    }, 180_000);
  }

  it("is cancelled at once by optimize cancel, in-flight calls aborted", async () => {
    const database = freshDb();
    server.setOptions({ latencyMs: 300 });
    const child = spawnCli(startArgs(), { databaseUrl: database.url, env });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await expect.poll(() => /optimization (\d+) started/.exec(stderr), { timeout: 30_000 }).toBeTruthy();
    const id = /optimization (\d+) started/.exec(stderr)![1]!;
    await expect.poll(() => stderr.includes("rollout 6 items"), { timeout: 60_000 }).toBe(true);
    const asked = performance.now();
    const cancel = await runCli(["optimize", "cancel", id], { databaseUrl: database.url });
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(await exited).toBe(3);
    expect(performance.now() - asked).toBeLessThan(10_000);
    const status = JSON.parse((await runCli(["optimize", "status", id], { databaseUrl: database.url })).stdout);
    expect(status.status).toBe("cancelled");
  }, 120_000);

  for (const [option, value, message] of [
    ["--max-target-calls", "60", /stopped by --max-target-calls: \d+ target calls made \(cap 60\)/],
    ["--max-optimizer-tokens", "3000", /stopped by --max-optimizer-tokens: \d+ optimizer tokens used \(cap 3000\)/],
    ["--max-wall-s", "1", /stopped by --max-wall-s: \d+\.\d s spent \(cap 1 s\)/],
  ] as const) {
    it(`stops cleanly at a step boundary at ${option}, saying which cap stopped it`, async () => {
      const database = freshDb();
      if (option === "--max-wall-s") server.setOptions({ latencyMs: 60 });
      const result = await runCli(startArgs([option, value]), { databaseUrl: database.url, env });
      expect(result.code, result.stderr).toBe(0);
      const summary = summaryOf(result.stdout);
      expect(summary.status).toBe("completed");
      expect(summary.stop_reason).toMatch(message);
      expect(result.stderr).toMatch(message);
      expect(summary.steps as number).toBeLessThan(12);
      expect(summary.test).toEqual({ initial: null, best: null, final: null });
    }, 120_000);
  }

  it("waits for a person with --approval manual; approve, reject and an edited candidate (gated again) go on", async () => {
    const database = freshDb();
    const args = startArgs(["--approval", "manual", "--epochs", "1"]);
    const first = await runCli(args, { databaseUrl: database.url, env });
    expect(first.code, first.stderr).toBe(0);
    const paused = summaryOf(first.stdout);
    expect(paused.status).toBe("waiting_for_approval");
    expect(first.stderr).toMatch(/waits for approval \(optimize approve \d+ \| optimize reject \d+\)/);
    const id = String(paused.optimization_id);
    const notWaiting = await runCli(["optimize", "approve", "999"], { databaseUrl: database.url });
    expect(notWaiting.code).toBe(2);

    // An edited candidate: the person's text is scored on val and gated again (here: the initial skill, a tie → rejected).
    const edited = join(dir, "edited.md");
    writeFileSync(edited, `# Topic answering\n\nRead the passages and answer with one title.\n\n## Topic rules\n`);
    expect((await runCli(["optimize", "approve", id, "--skill", edited], { databaseUrl: database.url })).code).toBe(0);
    let next = await runCli(["optimize", "start", "--resume", id], { databaseUrl: database.url, env });
    expect(next.code, next.stderr).toBe(0);
    const db = openDatabase(database.url);
    try {
      const step = (await listOptimizationSteps(db, Number(id))).find((stage) => stage.approval === "edited")!;
      expect(JSON.parse(step.gateJson!)).toMatchObject({ approval: "edited", action: "reject" });
    } finally {
      await db.$disconnect();
    }
    // Approve or reject every later candidate until it completes.
    for (let round = 0; summaryOf(next.stdout).status === "waiting_for_approval" && round < 12; round++) {
      expect((await runCli(["optimize", round % 2 ? "reject" : "approve", id], { databaseUrl: database.url })).code).toBe(0);
      next = await runCli(["optimize", "start", "--resume", id], { databaseUrl: database.url, env });
      expect(next.code, next.stderr).toBe(0);
    }
    expect(summaryOf(next.stdout).status).toBe("completed");
  }, 180_000);

  it("gates with McNemar when asked: a gain the strict gate accepts can be too small to be significant", async () => {
    const database = freshDb();
    const result = await runCli(startArgs(["--gate", "mcnemar", "--alpha", "0.01", "--epochs", "1"]), { databaseUrl: database.url, env });
    expect(result.code, result.stderr).toBe(0);
    const stages = await fingerprint(database.url, summaryOf(result.stdout).optimization_id);
    const gates = stages.filter((stage) => stage.gate).map((stage) => JSON.parse(stage.gate!) as { rule: string; action: string; candidate_score: number; score_before: number; statistics: { p_value: number } | null });
    expect(gates.length).toBeGreaterThan(0);
    expect(gates.every((gate) => gate.rule === "mcnemar")).toBe(true);
    for (const gate of gates) {
      if (gate.action.startsWith("accept")) expect(gate.statistics!.p_value).toBeLessThanOrEqual(0.01);
    }
    expect(gates.some((gate) => gate.action === "reject" && gate.candidate_score > gate.score_before)).toBe(true);
  }, 120_000);

  it("retries optimizer failures, records calls that never succeed, and goes on", async () => {
    const database = freshDb();
    // Every merge call fails with 500: upstream falls back to concatenating the patches.
    server.setOptions({ faults: { pick: (ctx) => (/## (Patches to merge \(|Two pre-merged patch groups)/.test(ctx.question) ? { kind: "status", status: 500 } : undefined) } });
    const result = await runCli(startArgs(["--epochs", "1", "--optimizer-max-retries", "1"]), { databaseUrl: database.url, env });
    expect(result.code, result.stderr).toBe(0);
    expect(summaryOf(result.stdout).status).toBe("completed");
    const calls = await storedCalls(database.url, summaryOf(result.stdout).optimization_id);
    const failed = calls.filter((call) => call.reply === null);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((call) => call.stage === "merge" && call.attempts === 2 && /500/.test(call.error ?? ""))).toBe(true);
    expect(result.stderr).toMatch(/optimizer call step:\d{4}\/merge\/\S+ failed after 2 attempts/);
  }, 120_000);

  it("refuses bad settings with the field named, storing nothing", async () => {
    const database = freshDb();
    const result = await runCli(startArgs(["--merge-batch-size", "1"]), { databaseUrl: database.url, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/gradient\.merge_batch_size: merge_batch_size must be >= 2/);
    const list = await runCli(["optimize", "list"], { databaseUrl: database.url });
    expect(list.stdout).toBe("");
  }, 60_000);
});

describe("optimize estimate", () => {
  it("prints the expected calls and tokens, storing no optimisation", async () => {
    const database = freshDb();
    const result = await runCli(["optimize", "estimate", ...startArgs().slice(2)], { databaseUrl: database.url, env });
    expect(result.code, result.stderr).toBe(0);
    const estimate = JSON.parse(result.stdout);
    expect(estimate).toMatchObject({ train_items: 32, val_items: 24, test_items: 12, epochs: 2, steps_per_epoch: 6, steps: 12 });
    // The reference optimisation made a number of target calls inside the estimated range.
    expect(reference.summary.target_calls as number).toBeGreaterThanOrEqual(estimate.target_calls.min);
    expect(reference.summary.target_calls as number).toBeLessThanOrEqual(estimate.target_calls.max);
    expect(reference.optimizerRequests).toBeGreaterThanOrEqual(estimate.optimizer_calls.min);
    expect(reference.optimizerRequests).toBeLessThanOrEqual(estimate.optimizer_calls.max);
    expect((await runCli(["optimize", "list"], { databaseUrl: database.url })).stdout).toBe("");
  }, 60_000);
});

describe("stored edits", () => {
  it("record each ranked edit with its own apply status (the apply report numbers edits from 1)", async () => {
    const db = openDatabase(reference.url);
    try {
      const steps = (await listOptimizationSteps(db, reference.id)).filter((stage) => stage.kind === "step" && stage.candidateVersionId !== null);
      let checked = 0;
      for (const step of steps) {
        const edits = await db.optimizationEdit.findMany({ where: { stepId: step.id }, orderBy: { ordinal: "asc" } });
        const candidate = (await getSkillVersion(db, step.candidateVersionId!)).content;
        for (const edit of edits) {
          expect(edit.applyStatus).not.toBe("not_applied");
          // An applied append or insert leaves its text in the candidate.
          if (edit.applyStatus.startsWith("applied") && edit.op !== "delete") expect(candidate).toContain(edit.content.trim());
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    } finally {
      await db.$disconnect();
    }
  });
});
