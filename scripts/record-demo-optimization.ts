/**
 * Records the demo optimisation a fresh install shows (prisma/demo/optimization/, SkillOpt's output layout plus
 * skillboard.json): a real optimisation of the demo skill (searchqa v1, the empty starting skill) on a split of the demo
 * dataset, run through the engine against the test model server's scripted analyst and target (tests/support/
 * fake-optimizer*.ts; fake-optimizer-searchqa.ts is the world of untagged SearchQA items), then exported. The seed
 * (lib/optimize/demo-optimization.ts) makes the same split and imports it, so its versions are versions of the demo
 * skill. Re-run after changing the loop, the scripted models or the demo:
 *
 *   npx tsx scripts/record-demo-optimization.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listSkillVersions, openDatabase, splitDataset } from "../lib/db";
import { DEMO_SKILL_NAME, findDemoRunInputs, seedDemoIfEmpty } from "../lib/db/demo";
import { DEMO_OPTIMIZATION, DEMO_SPLIT, scriptedModelLabel } from "../lib/optimize/demo-optimization";
import { createOptimizationFor, executeOptimization } from "../lib/optimize/engine";
import { loadSkillOptExport, skillOptFiles, writeSkillOptDir } from "../lib/optimize/skillopt-export";
import { RunSettingsSchema } from "../lib/runs";
import { startFakeOpenAIServer } from "../tests/support/fake-openai-server";
import { optimizerAnswer } from "../tests/support/fake-optimizer";

const OUT = join("prisma", "demo", "optimization");
const server = await startFakeOpenAIServer({ answer: (req) => optimizerAnswer(req), recordRequests: false });
const dir = mkdtempSync(join(tmpdir(), "skillboard-demo-optimization-"));
const db = openDatabase(`file:${join(dir, "demo.db")}`);
try {
  await seedDemoIfEmpty(db);
  const demo = await findDemoRunInputs(db);
  if (!demo) throw new Error("the demo dataset and skill were not seeded");
  const initial = (await listSkillVersions(db)).find((version) => version.skillName === DEMO_SKILL_NAME && version.version === 1)!;
  const { split } = await splitDataset(db, demo.datasetId, { mode: "ratio", ...DEMO_SPLIT });
  const selection = { backend: "openai" as const, model: "scripted-target", baseURL: server.baseURL };
  const optimization = await createOptimizationFor(db, {
    name: DEMO_OPTIMIZATION.name,
    skillVersionId: initial.id, trainDatasetId: split.parts.train.datasetId, valDatasetId: split.parts.val.datasetId, testDatasetId: split.parts.test.datasetId,
    settings: DEMO_OPTIMIZATION.settings,
    targetConfig: { model: selection, settings: RunSettingsSchema.parse({ concurrency: 8 }) },
    optimizer: { ...selection, model: "scripted-optimizer", concurrency: 4 },
  });
  const { record } = await executeOptimization(db, optimization.id, { log: (line) => process.stderr.write(`${line}\n`) });
  if (record.status !== "completed") throw new Error(`the demo optimisation ended ${record.status}: ${record.error ?? ""}`);
  const input = await loadSkillOptExport(db, optimization.id);
  // The loopback server's address meant nothing outside this recording: the models are named for what they were.
  const label = (json: string) => JSON.stringify(scriptedModelLabel(JSON.parse(json) as Record<string, unknown>));
  const files = skillOptFiles({ ...input, optimization: { ...input.optimization, targetConfigJson: label(record.targetConfigJson), optimizerJson: label(record.optimizerJson) } });
  rmSync(OUT, { recursive: true, force: true });
  writeSkillOptDir(OUT, files);
  process.stderr.write(`wrote ${files.length} files to ${OUT}\n`);
} finally {
  await db.$disconnect();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
