// What the optimisation pages read, on a large stored optimisation: 40 steps whose optimizer calls hold long prompts.
// The live payload and a step's call list carry no call text (each call's text is fetched alone), and the chart's
// points, the accepted count and the planned steps come from the stored stages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addSkillVersion, createOptimization, getOptimizerCallText, importDataset, listOptimizerCallBriefs, saveOptimizationStep, saveOptimizerCall,
} from "@/lib/db";
import { loadOptimizationLive } from "@/app/_lib/optimization-payload";
import { makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

const STEPS = 40;
const CALLS_PER_STEP = 6;
const PROMPT = "P".repeat(20_000);

let t: TestDatabase;
let id: number;
beforeAll(async () => {
  t = createTestDb();
  const train = await importDataset(t.db, { name: "train", fileName: "t.jsonl", format: "jsonl", hash: "t", items: makeItems(400) });
  const val = await importDataset(t.db, { name: "val", fileName: "v.jsonl", format: "jsonl", hash: "v", items: makeItems(200) });
  const test = await importDataset(t.db, { name: "test", fileName: "x.jsonl", format: "jsonl", hash: "x", items: makeItems(1400) });
  const skill = (await addSkillVersion(t.db, { name: "s", content: "Answer briefly." })).version;
  const settings = { train: { num_epochs: 4, batch_size: 40, accumulation: 1 } };
  id = (await createOptimization(t.db, {
    skillId: skill.skillId, initialVersionId: skill.id, trainDatasetId: train.id, valDatasetId: val.id, testDatasetId: test.id,
    settingsJson: JSON.stringify(settings), targetConfigJson: JSON.stringify({ model: { backend: "openai", model: "m" } }), optimizerJson: JSON.stringify({ backend: "openai", model: "o" }), capsJson: "{}",
  })).id;
  await saveOptimizationStep(t.db, id, { key: "baseline", kind: "baseline", epoch: 0, globalStep: 0, action: "baseline", recordJson: JSON.stringify({ current_score: 0.5 }) });
  for (let step = 1; step <= STEPS; step++) {
    const key = `step:${String(step).padStart(4, "0")}`;
    const accepted = step % 10 === 0;
    const before = 0.5 + Math.floor((step - 1) / 10) * 0.01;
    await saveOptimizationStep(t.db, id, {
      key, kind: "step", epoch: Math.ceil(step / 10), globalStep: step, action: accepted ? "accept_new_best" : "reject",
      gateJson: JSON.stringify({ rule: "strict", action: accepted ? "accept_new_best" : "reject", score_before: before, candidate_score: accepted ? before + 0.01 : before - 0.01, statistics: { fixed: 3, broken: 1, p_value: 0.31, difference: { mean: 0.01, low: -0.02, high: 0.04 } } }),
      recordJson: JSON.stringify({ rollout_hard: 0.4, current_score: accepted ? before + 0.01 : before, best_score: accepted ? before + 0.01 : before, n_edits_ranked: 2, edit_budget: 3 }),
    });
    for (let call = 0; call < CALLS_PER_STEP; call++) {
      await saveOptimizerCall(t.db, id, { key: `${key}/batch:0/analyst/failure/${String(call).padStart(3, "0")}`, stepKey: key, stage: "analyst", system: "S", user: `${PROMPT}${key}/${call}`, reply: `REPLY ${key}/${call}`, promptTokens: 5000, completionTokens: 800, latencyMs: 10, attempts: 1 });
    }
  }
}, 120_000);
afterAll(() => t.close());

describe("the optimisation pages' queries", () => {
  it("the live payload: every stage, the chart's points and intervals, planned steps, and no call text", async () => {
    const started = performance.now();
    const payload = await loadOptimizationLive(t.db, id);
    const elapsed = performance.now() - started;
    const json = JSON.stringify(payload);
    expect(json).not.toContain("PPPPPPPPPP");
    expect(json).not.toContain("REPLY");
    expect(json.length).toBeLessThan(100_000);
    expect(payload.stages).toHaveLength(STEPS + 1);
    expect(payload.summary).toMatchObject({ planned: 40, done: 40, accepted: 4, initialVal: 0.5 });
    const tenth = payload.summary.points.find((point) => point.step === 10)!;
    expect(tenth).toMatchObject({ accepted: true, current: 0.51, best: 0.51, trainBatch: 0.4 });
    expect(tenth.candidate).toBeCloseTo(0.51, 10);
    expect(tenth.low).toBeCloseTo(0.48, 10);
    expect(tenth.high).toBeCloseTo(0.54, 10);
    expect(payload.stages[1]).toMatchObject({ key: "step:0001", fixed: 3, broken: 1, pValue: 0.31, edits: 2, editBudget: 3, accepted: false });
    expect(elapsed).toBeLessThan(2_000);
  });

  it("a step's calls come without their text; one call's text is loaded alone", async () => {
    const briefs = await listOptimizerCallBriefs(t.db, id, "step:0007");
    expect(briefs).toHaveLength(CALLS_PER_STEP);
    expect(JSON.stringify(briefs)).not.toContain("PPPP");
    const text = await getOptimizerCallText(t.db, id, briefs[2]!.id);
    expect(text.user).toBe(`${PROMPT}step:0007/2`);
    expect(text.reply).toBe("REPLY step:0007/2");
    await expect(getOptimizerCallText(t.db, id + 1, briefs[2]!.id)).rejects.toThrow(/not found/);
  });
});
