// GET /api/runs/[id]/live's logic: a NotFoundError for an unknown run (the route answers 404; malformed ids are
// answered 400 before this, see runs-actions.test.ts and http-edge.test.ts), and for a real run its summary (no
// secrets), derived stats, downsampled curve and failure reasons.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getRun, NotFoundError, addSkillVersion } from "@/lib/db";
import { executeRun } from "@/lib/rollout";
import { loadRunLive } from "@/app/_lib/live-payload";
import { rerunWithSkillVersion } from "@/app/runs/_lib/rerun";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { createStoredRun, fastModel, makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;
beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  await server.close();
  await t.close();
});

describe("loadRunLive", () => {
  it("fails with a not-found error for an unknown run", async () => {
    const error = await loadRunLive(t.db, 4242).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe("run 4242 not found");
  });

  it("returns the run's summary, stats, curve and failure reasons, JSON-safe and without the prompt or lease", async () => {
    // Items 3, 6, 9… have another gold answer, so they come back wrong.
    const run = await createStoredRun(t.db, { items: makeItems(30, (i) => i % 3 === 0), baseURL: server.baseURL, settings: { concurrency: 4 } });
    await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    const result = await loadRunLive(t.db, run.id);
    const { run: summary, stats, curve, failureReasons } = result;
    expect(summary).toMatchObject({ id: run.id, status: "completed", itemsTotal: 30, model: "test-model", cancelRequested: false });
    expect(typeof summary.finishedAt).toBe("string");
    expect(summary).not.toHaveProperty("systemPrompt");
    expect(summary).not.toHaveProperty("workerId");
    expect(stats).toMatchObject({ done: 30, total: 30, fraction: 1, correct: 20, wrong: 10, errors: 0, timeouts: 0, etaSeconds: null });
    expect(curve.at(-1)).toMatchObject({ n: 30, em: 20 / 30 });
    expect(failureReasons).toEqual([{ reason: "wrong answer (EM = 0)", count: 10 }]);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    // No price is known for "test-model": the cost is unknown, never a made-up number; the cache is not in use.
    expect(result.cost).toEqual({ usd: null, priceSource: null });
    expect(result.cachedItems).toBeNull();
  });

  it("prices a run's tokens at its model's known price, saying where the price comes from", async () => {
    const run = await createStoredRun(t.db, { items: makeItems(4), baseURL: server.baseURL, model: "gpt-4.1-mini" });
    await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    const stored = await getRun(t.db, run.id);
    const { cost } = await loadRunLive(t.db, run.id);
    expect(stored.promptTokens).toBeGreaterThan(0);
    expect(cost.usd).toBeCloseTo((stored.promptTokens * 0.4 + stored.completionTokens * 1.6) / 1_000_000, 12);
    expect(cost.priceSource).toMatch(/^list price as of /);
  });
});

describe("rerunWithSkillVersion", () => {
  it("queues a run on the same dataset with the same settings and the other skill version", async () => {
    const source = await createStoredRun(t.db, { items: makeItems(12), baseURL: server.baseURL, settings: { limit: 5, concurrency: 3 } });
    const other = (await addSkillVersion(t.db, { name: "other", content: "Another way to answer." })).version;
    const rerun = await rerunWithSkillVersion(t.db, { runId: source.id, skillVersionId: other.id });
    const stored = await getRun(t.db, rerun.id);
    expect(stored).toMatchObject({ status: "queued", datasetId: source.datasetId, skillVersionId: other.id, itemsTotal: 5 });
    expect(stored.config).toEqual(source.config);
  });

  it("fails with a not-found error for an unknown run or skill version", async () => {
    await expect(rerunWithSkillVersion(t.db, { runId: 999, skillVersionId: 1 })).rejects.toBeInstanceOf(NotFoundError);
    const source = await createStoredRun(t.db, { items: makeItems(3), baseURL: server.baseURL });
    await expect(rerunWithSkillVersion(t.db, { runId: source.id, skillVersionId: 999 })).rejects.toBeInstanceOf(NotFoundError);
  });
});
