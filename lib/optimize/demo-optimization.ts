/**
 * The demo optimisation of a fresh install: an optimisation of the demo skill (searchqa v1, the empty starting skill) on
 * a train / val / test split of the demo dataset, recorded once with the test model server's scripted analyst and
 * target (scripts/record-demo-optimization.ts) in SkillOpt's output layout with skillboard.json, so a user with no key
 * can open every optimisation page. Seeding makes the same split of the demo dataset and imports the recording onto it:
 * its candidates become versions of the demo skill (v3 on), with their lineage. Marked imported; its name and its
 * models say it was recorded with scripted models. The recorded rollouts are not runs here (an import has none).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { listOptimizations, splitDataset, type Db } from "../db";
import { DEMO_SKILL_NAME, demoDirectory, findDemoRunInputs } from "../db/demo";
import { importSkillOptDir } from "./skillopt-import";

/** The split of the demo dataset it ran on: 20 train, 20 val and 10 test items. */
export const DEMO_SPLIT = { ratio: "2:2:1", seed: 42 } as const;

export const DEMO_OPTIMIZATION = {
  name: "Demo: recorded with scripted models",
  // Three epochs of two steps (batches of 10 of the 20 train items, minibatches of 2, so several analyst patches merge
  // in a tree and the ranking cuts to the budget), upstream's defaults otherwise.
  settings: {
    train: { num_epochs: 3, train_size: 0, batch_size: 10 },
    gradient: { minibatch_size: 2, merge_batch_size: 2 },
    optimizer: { learning_rate: 2, min_learning_rate: 1, slow_update_samples: 6 },
    // The steps after a slow update start from a skill that inherited its score: rolled out on val for the gate's
    // statistics, so every step page of the demo shows fixed / broken, the McNemar p-value and the interval.
    skillboard: { measure_inherited: true },
  },
} as const;

export const SCRIPTED_MODELS_NOTE = "recorded with the test model server's scripted models (tests/support/fake-optimizer*.ts), not a language model";

/** A target or optimizer model setting as the recording stores it: no loopback address, and what the models were. */
export function scriptedModelLabel(config: Record<string, unknown>): Record<string, unknown> {
  const strip = (selection: Record<string, unknown>) => ({ ...Object.fromEntries(Object.entries(selection).filter(([key]) => key !== "baseURL")), note: SCRIPTED_MODELS_NOTE });
  return config.model && typeof config.model === "object" ? { ...config, model: strip(config.model as Record<string, unknown>) } : strip(config);
}

/**
 * Imports the recorded demo optimisation onto the demo's dataset and skill, unless the database has an optimisation
 * already or the demo's dataset or skill are gone. Called right after the demo itself is seeded (instrumentation.ts).
 */
export async function seedDemoOptimization(db: Db, directory: string = demoDirectory()): Promise<{ seeded: boolean }> {
  const dir = path.join(directory, "optimization");
  if (!existsSync(dir) || (await listOptimizations(db)).length > 0) return { seeded: false };
  const demo = await findDemoRunInputs(db);
  if (!demo) return { seeded: false };
  const { split } = await splitDataset(db, demo.datasetId, { mode: "ratio", ...DEMO_SPLIT });
  await importSkillOptDir(db, dir, {
    name: DEMO_SKILL_NAME,
    datasets: { train: split.parts.train.datasetId, val: split.parts.val.datasetId, test: split.parts.test.datasetId },
  });
  return { seeded: true };
}
