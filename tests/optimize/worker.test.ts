// The dashboard's optimisation worker: a queued optimisation is claimed and run to the end in the server process, and
// the run worker leaves the optimisation's own runs alone (the optimisation resumes them itself).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { getOptimization, listOptimizationRuns, listRunsToExecute } from "@/lib/db";
import { addSkillFile, importDatasetFile } from "@/lib/cli/inputs";
import { createOptimizationFor } from "@/lib/optimize/engine";
import { startOptimizationWorker, type OptimizationWorker } from "@/lib/optimize/engine/worker";
import { RunSettingsSchema } from "@/lib/runs";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { optimizerAnswer } from "../support/fake-optimizer";
import { writeOptimizationFiles } from "../support/optimize-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;
let dir: string;
let worker: OptimizationWorker | undefined;
beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer({ answer: (req) => optimizerAnswer(req) });
  dir = mkdtempSync(join(tmpdir(), "skillboard-optimize-worker-"));
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  await server.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

it("executes a queued optimisation to the end; its runs are never taken by the run worker", async () => {
  const files = writeOptimizationFiles(dir);
  const [train, val, test] = [await importDatasetFile(t.db, files.train), await importDatasetFile(t.db, files.val), await importDatasetFile(t.db, files.test)];
  const { version } = await addSkillFile(t.db, files.skill);
  const optimization = await createOptimizationFor(t.db, {
    skillVersionId: version.id, trainDatasetId: train.id, valDatasetId: val.id, testDatasetId: test.id,
    settings: { train: { num_epochs: 1, train_size: 0, batch_size: 8 }, gradient: { minibatch_size: 4 }, optimizer: { slow_update_samples: 4 } },
    targetConfig: { model: { backend: "openai", model: "fake", baseURL: server.baseURL }, settings: RunSettingsSchema.parse({ concurrency: 8 }) },
    optimizer: { backend: "openai", model: "fake", baseURL: server.baseURL, concurrency: 4 },
  });
  expect(optimization.status).toBe("queued");
  worker = startOptimizationWorker({ db: t.db, pollMs: 50, log: () => {} });
  await expect.poll(async () => (await getOptimization(t.db, optimization.id)).status, { timeout: 60_000, interval: 50 }).toBe("completed");
  const done = await getOptimization(t.db, optimization.id);
  expect(JSON.parse(done.summaryJson!)).toMatchObject({ total_steps: 3 });
  const runs = await listOptimizationRuns(t.db, optimization.id);
  expect(runs.length).toBeGreaterThan(4);
  // Even left "running" by a dead process, an optimisation's run is not the run worker's to resume.
  await t.db.run.update({ where: { id: runs[0]!.runId }, data: { status: "running", workerId: "elsewhere:1:dead" } });
  expect((await listRunsToExecute(t.db, [])).map((run) => run.id)).not.toContain(runs[0]!.runId);
}, 90_000);
