/**
 * The demo optimisation of a fresh install: recorded once with the test server's scripted models
 * (scripts/record-demo-optimization.ts) in SkillOpt's output layout, so a user with no key can open every optimisation
 * page. Marked imported, and its name says it was scripted. Not seeded at start yet (a second skill would stop the New
 * run form from prefilling the demo's only skill); `optimize import prisma/demo/optimization` adds it.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { listOptimizations, type Db } from "../db";
import { demoDirectory } from "../db/demo";
import { importSkillOptDir } from "./skillopt-import";

export const DEMO_OPTIMIZATION_SKILL = "topic-rules (demo)";

/** Imports the recorded demo optimisation unless the database already has an optimisation. */
export async function seedDemoOptimization(db: Db, directory: string = demoDirectory()): Promise<{ seeded: boolean }> {
  const dir = path.join(directory, "optimization");
  if (!existsSync(dir) || (await listOptimizations(db)).length > 0) return { seeded: false };
  await importSkillOptDir(db, dir, { name: DEMO_OPTIMIZATION_SKILL });
  return { seeded: true };
}
