// What an optimisation has cost, as its page (the live payload) and the Optimise list show it: the target runs at the
// target model's price plus the optimizer calls at the optimizer model's, from real runs against the fake server;
// "unknown" (null) as soon as one model has no price, and for an imported optimisation that recorded no usage.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOptimization, getRun, getSkillVersion, linkOptimizationRun, listOptimizationUsage, saveOptimizerCall, type Db } from "@/lib/db";
import { executeRun } from "@/lib/rollout";
import { optimizationCost } from "@/lib/optimize/cost";
import { loadOptimizationLive } from "@/app/_lib/optimization-payload";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { createStoredRun, fastModel, makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;
beforeAll(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer();
});
afterAll(async () => {
  await server.close();
  await t.close();
});

/** A finished target run of `model` on the fake server, with the tokens it really used. */
async function executedRun(db: Db, model: string) {
  const run = await createStoredRun(db, { items: makeItems(3), baseURL: server.baseURL, model });
  await executeRun(db, run.id, { model: fastModel(server.baseURL) });
  return getRun(db, run.id);
}

async function optimizationWith(db: Db, input: { targetModels: string[]; optimizerModel: string; source?: "imported" }) {
  const runs = await Promise.all(input.targetModels.map((model) => executedRun(db, model)));
  const first = runs[0]!;
  const { skillId } = await getSkillVersion(db, first.skillVersionId);
  const optimization = await createOptimization(db, {
    skillId, initialVersionId: first.skillVersionId, trainDatasetId: first.datasetId, valDatasetId: first.datasetId, testDatasetId: null,
    settingsJson: "{}", targetConfigJson: JSON.stringify({ model: { backend: "openai", model: input.targetModels[0] } }),
    optimizerJson: JSON.stringify({ backend: "openai", model: input.optimizerModel }), capsJson: JSON.stringify({ maxTargetCalls: 100 }),
    ...(input.source ? { source: input.source } : {}),
  });
  for (const [index, run] of runs.entries()) await linkOptimizationRun(db, optimization.id, `step:${index}/val`, run.id);
  for (const index of [0, 1]) {
    await saveOptimizerCall(db, optimization.id, { key: `step:0001/analyst/${index}`, stepKey: "step:0001", stage: "analyst", system: "S", user: "U", reply: "R", promptTokens: 100_000, completionTokens: 25_000, latencyMs: 1, attempts: 1 });
  }
  return { optimization, runs };
}

describe("an optimisation's cost", () => {
  it("prices the target runs and the optimizer calls at their models' prices, on the optimisation's page", async () => {
    const { optimization, runs } = await optimizationWith(t.db, { targetModels: ["gpt-4.1-mini", "gpt-4.1-mini"], optimizerModel: "gpt-4.1" });
    expect(runs.every((run) => run.promptTokens > 0)).toBe(true);
    const target = runs.reduce((sum, run) => sum + (run.promptTokens * 0.4 + run.completionTokens * 1.6) / 1_000_000, 0);
    // 200k prompt and 50k completion optimizer tokens at gpt-4.1's 2 / 8 per million.
    const optimizer = (200_000 * 2 + 50_000 * 8) / 1_000_000;
    const { cost } = await loadOptimizationLive(t.db, optimization.id);
    expect(cost.target).toBeCloseTo(target, 12);
    expect(cost.optimizer).toEqual({ usd: expect.closeTo(optimizer, 12), priceSource: expect.stringMatching(/^list price as of /) });
    expect(cost.total).toBeCloseTo(target + optimizer, 12);
  });

  it("is unknown, never a partial sum, when one model has no price", async () => {
    const unpricedTarget = await optimizationWith(t.db, { targetModels: ["gpt-4.1-mini", "my-local-llama"], optimizerModel: "gpt-4.1" });
    const { cost } = await loadOptimizationLive(t.db, unpricedTarget.optimization.id);
    expect(cost.target).toBeNull();
    expect(cost.optimizer.usd).toBeCloseTo(0.8, 12);
    expect(cost.total).toBeNull();

    const unpricedOptimizer = await optimizationWith(t.db, { targetModels: ["gpt-4.1-mini"], optimizerModel: "my-local-llama" });
    const other = (await loadOptimizationLive(t.db, unpricedOptimizer.optimization.id)).cost;
    expect(other.target).not.toBeNull();
    expect(other.optimizer).toEqual({ usd: null, priceSource: null });
    expect(other.total).toBeNull();
  });

  it("is unknown for an imported optimisation, and the list's usage covers every optimisation it asks for", async () => {
    const imported = await optimizationWith(t.db, { targetModels: ["gpt-4.1-mini"], optimizerModel: "gpt-4.1", source: "imported" });
    const usage = await listOptimizationUsage(t.db, [imported.optimization.id, 9999]);
    expect(usage.get(imported.optimization.id)).toMatchObject({ targetRuns: [{ model: "gpt-4.1-mini" }], optimizer: { promptTokens: 200_000, completionTokens: 50_000 } });
    expect(usage.get(9999)).toEqual({ targetRuns: [], optimizer: { promptTokens: 0, completionTokens: 0 } });
    expect(optimizationCost(imported.optimization, usage.get(imported.optimization.id)!, {})).toEqual({ target: null, optimizer: { usd: null, priceSource: null }, total: null });
  });
});
