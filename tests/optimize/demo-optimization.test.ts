// The recorded demo optimisation: imported once into a fresh install, browsable, labelled as scripted, never re-added.
import { afterEach, expect, it } from "vitest";
import { getOptimization, getSkillVersion, listOptimizations, listOptimizationSteps } from "@/lib/db";
import { seedDemoOptimization } from "@/lib/optimize/demo-optimization";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase | undefined;
afterEach(async () => t?.close());

it("imports the recorded optimisation with its steps and skills, once", async () => {
  t = createTestDb();
  expect(await seedDemoOptimization(t.db)).toEqual({ seeded: true });
  const [row] = await listOptimizations(t.db);
  const optimization = await getOptimization(t.db, row!.id);
  expect(optimization).toMatchObject({ source: "imported", status: "completed" });
  expect(optimization.name).toMatch(/scripted models/);
  const stages = await listOptimizationSteps(t.db, optimization.id);
  expect(stages.filter((stage) => stage.kind === "step")).toHaveLength(8);
  expect(stages.some((stage) => stage.action === "accept_new_best")).toBe(true);
  const best = await getSkillVersion(t.db, optimization.bestVersionId!);
  expect(best.content).toMatch(/\[topic: t\d+\] questions: the answer is the title of the/);
  expect(best.originOptimizationId).toBe(optimization.id);
  expect(await seedDemoOptimization(t.db)).toEqual({ seeded: false });
  expect(await listOptimizations(t.db)).toHaveLength(1);
});
