// The recorded demo optimisation: seeded with the demo onto the demo skill and a split of the demo dataset, browsable
// (stages, edits, optimizer calls with their prompts), labelled as recorded with scripted models, never re-added.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import {
  getDatasetSplitByPart, getOptimization, getOptimizationOverview, getSkillVersion, listOptimizationEdits, listOptimizations, listOptimizationSteps, listOptimizationVersions, listOptimizerCalls, listSkillVersions,
} from "@/lib/db";
import { DEMO_DATASET_NAME, DEMO_SKILL_NAME, demoDirectory, findDemoRunInputs, seedDemoIfEmpty } from "@/lib/db/demo";
import { seedDemoOptimization } from "@/lib/optimize/demo-optimization";
import { summarizeOptimization } from "@/lib/optimize/overview";
import { NEXT_PASSAGE_RULE, STRIP_SUFFIX_RULE } from "../support/fake-optimizer-searchqa";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase | undefined;
afterEach(async () => t?.close());

it("seeds the recorded optimisation of the demo skill on a split of the demo dataset, once", async () => {
  t = createTestDb();
  expect(await seedDemoIfEmpty(t.db)).toEqual({ seeded: true });
  expect(await seedDemoOptimization(t.db)).toEqual({ seeded: true });
  const [row] = await listOptimizations(t.db);
  const optimization = await getOptimization(t.db, row!.id);
  expect(optimization).toMatchObject({ source: "imported", status: "completed" });
  expect(optimization.name).toMatch(/recorded with scripted models/);

  // The demo skill's own versions: v1 (the starting skill) is where it started; what it made follows v2.
  const versions = (await listSkillVersions(t.db)).filter((version) => version.skillName === DEMO_SKILL_NAME);
  expect(new Set((await listSkillVersions(t.db)).map((version) => version.skillName))).toEqual(new Set([DEMO_SKILL_NAME]));
  const initial = await getSkillVersion(t.db, optimization.initialVersionId);
  expect(initial).toMatchObject({ skillName: DEMO_SKILL_NAME, version: 1 });
  const lineage = await listOptimizationVersions(t.db, optimization.id);
  const made = lineage.filter((version) => version.originOptimizationId === optimization.id);
  expect(made.length).toBeGreaterThan(1);
  for (const version of made) {
    expect(version.version).toBeGreaterThan(2);
    expect(lineage.map((v) => v.id)).toContain(version.parentVersionId);
  }
  expect(versions.at(-1)!.version).toBe(Math.max(...made.map((version) => version.version)));
  const best = await getSkillVersion(t.db, optimization.bestVersionId!);
  expect(best.content).toContain(STRIP_SUFFIX_RULE);
  expect(best.content).toContain(NEXT_PASSAGE_RULE);

  // Its datasets are the train / val / test split of the demo dataset.
  for (const [id, part] of [[optimization.trainDatasetId, "train"], [optimization.valDatasetId, "val"], [optimization.testDatasetId!, "test"]] as const) {
    const split = await getDatasetSplitByPart(t.db, id);
    expect(split).toMatchObject({ part, split: { sourceName: DEMO_DATASET_NAME } });
  }
  const overview = summarizeOptimization(await getOptimizationOverview(t.db, optimization.id));
  expect(overview.models.target).toBe("scripted-target");
  expect(overview.done).toBe(6);
  expect(overview.accepted).toBeGreaterThan(0);
  expect(overview.test?.best).toBeGreaterThan(overview.test!.initial!);

  // Steps come with their ranked edits and every optimizer call with its prompt, as recorded.
  const stages = await listOptimizationSteps(t.db, optimization.id);
  expect(stages.filter((stage) => stage.kind === "step")).toHaveLength(6);
  expect(stages.some((stage) => stage.action === "accept_new_best")).toBe(true);
  expect(stages.some((stage) => stage.action === "reject")).toBe(true);
  // Every gated step has its paired statistics, the steps after epoch 1's placeholder (which inherited its score) too.
  for (const stage of stages.filter((s) => s.kind === "step")) {
    const gate = JSON.parse(stage.gateJson!) as { statistics: { fixed: number; broken: number; p_value: number; difference: { low: number; high: number } } | null; current_val?: { key: string } };
    expect(gate.statistics, stage.key).toMatchObject({ fixed: expect.any(Number), broken: expect.any(Number), p_value: expect.any(Number), difference: { low: expect.any(Number), high: expect.any(Number) } });
    if (stage.epoch === 2) expect(gate.current_val?.key, stage.key).toBe("step:0003/selection/current");
  }
  const accepted = stages.find((stage) => stage.action === "accept_new_best")!;
  const edits = await listOptimizationEdits(t.db, accepted.id);
  expect(edits.length).toBeGreaterThan(0);
  expect(edits[0]!.applyStatus).toMatch(/^applied/);
  expect((JSON.parse(edits[0]!.proposedByJson) as { itemIds: string[] }[])[0]!.itemIds[0]).toMatch(/^demo-\d{3}$/);
  const calls = await listOptimizerCalls(t.db, optimization.id);
  const recorded = (JSON.parse(readFileSync(join(demoDirectory(), "optimization", "skillboard.json"), "utf8")) as { calls: unknown[] }).calls;
  expect(calls).toHaveLength(recorded.length);
  expect(new Set(calls.map((call) => call.stage))).toEqual(new Set(["analyst", "merge", "ranking", "slow_update", "meta_skill"]));
  const analyst = calls.find((call) => call.stage === "analyst" && call.stepKey === accepted.key)!;
  expect(analyst.system.length).toBeGreaterThan(0);
  expect(analyst.user).toContain("## Current Skill");

  // The home page's demo run still runs the demo's trained skill, not the optimisation's last candidate.
  expect((await findDemoRunInputs(t.db))?.skillVersion).toBe(2);

  expect(await seedDemoOptimization(t.db)).toEqual({ seeded: false });
  expect(await listOptimizations(t.db)).toHaveLength(1);
});

it("adds nothing when the demo's skill is not there", async () => {
  t = createTestDb();
  expect(await seedDemoOptimization(t.db)).toEqual({ seeded: false });
  expect(await listOptimizations(t.db)).toHaveLength(0);
  expect(await t.db.dataset.count()).toBe(0);
});
