/**
 * Records the demo optimisation a fresh install shows (prisma/demo/optimization/, SkillOpt's output layout): a real
 * optimisation of a small topic-rules skill, run through the engine against the test model server's scripted analyst
 * and skill-sensitive target (tests/support/fake-optimizer*.ts), then exported. Re-run after changing the loop:
 *
 *   npx tsx scripts/record-demo-optimization.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addSkillVersion, importDataset, openDatabase } from "../lib/db";
import { createOptimizationFor, executeOptimization } from "../lib/optimize/engine";
import { loadSkillOptExport, skillOptFiles, writeSkillOptDir } from "../lib/optimize/skillopt-export";
import { RunSettingsSchema } from "../lib/runs";
import { startFakeOpenAIServer } from "../tests/support/fake-openai-server";
import { optimizerAnswer } from "../tests/support/fake-optimizer";
import { optimizationDataset, TOPIC_RULES_HEADING } from "../tests/support/fake-optimizer-target";

const OUT = join("prisma", "demo", "optimization");
const server = await startFakeOpenAIServer({ answer: (req) => optimizerAnswer(req), recordRequests: false });
const dir = mkdtempSync(join(tmpdir(), "skillboard-demo-optimization-"));
const db = openDatabase(`file:${join(dir, "demo.db")}`);
try {
  const items = optimizationDataset({ size: 60, topics: 12, seed: 3, lureRate: 0.6 });
  const part = (name: string, from: number, to: number) => importDataset(db, { name, fileName: `${name}.jsonl`, format: "jsonl", hash: name, items: items.slice(from, to) });
  const [train, val, test] = [await part("topics · train", 0, 24), await part("topics · val", 24, 42), await part("topics · test", 42, 60)];
  const { version } = await addSkillVersion(db, { name: "topic-rules (demo)", content: `# Topic answering\n\nRead the passages and answer with one title.\n\n${TOPIC_RULES_HEADING}\n` });
  const selection = { backend: "openai" as const, model: "scripted-target", baseURL: server.baseURL };
  const optimization = await createOptimizationFor(db, {
    name: "Demo: recorded with scripted models",
    skillVersionId: version.id, trainDatasetId: train.id, valDatasetId: val.id, testDatasetId: test.id,
    settings: { train: { num_epochs: 2, train_size: 0, batch_size: 6 }, gradient: { minibatch_size: 4, merge_batch_size: 2 }, optimizer: { learning_rate: 2, min_learning_rate: 1, slow_update_samples: 6 } },
    targetConfig: { model: selection, settings: RunSettingsSchema.parse({ concurrency: 8 }) },
    optimizer: { ...selection, model: "scripted-optimizer", concurrency: 4 },
  });
  const { record } = await executeOptimization(db, optimization.id, { log: (line) => process.stderr.write(`${line}\n`) });
  if (record.status !== "completed") throw new Error(`the demo optimisation ended ${record.status}: ${record.error ?? ""}`);
  rmSync(OUT, { recursive: true, force: true });
  const files = skillOptFiles(await loadSkillOptExport(db, optimization.id));
  writeSkillOptDir(OUT, files);
  process.stderr.write(`wrote ${files.length} files to ${OUT}\n`);
} finally {
  await db.$disconnect();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
