/**
 * One test's optimiser world: a fresh database, the test model server playing every optimizer role (and the
 * skill-sensitive target), and a temporary folder for its dataset and skill files; made before each test of the file
 * and removed after it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { addSkillFile, importDatasetFile } from "@/lib/cli/inputs";
import type { Db } from "@/lib/db";
import type { CreateOptimizationForInput } from "@/lib/optimize/engine";
import { RunSettingsSchema } from "@/lib/runs";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./fake-openai-server";
import { optimizerAnswer } from "./fake-optimizer";
import { writeOptimizationFiles } from "./optimize-fixtures";
import { createTestDb, type TestDatabase } from "./test-db";

export interface OptimizerWorld {
  readonly db: Db;
  readonly server: FakeOpenAIServer;
  readonly dir: string;
  /** Swaps the database for a fresh one (the server and the folder stay): a second optimisation from scratch. */
  renewDatabase(): Promise<void>;
  /**
   * The fixture's train, val and test datasets and skill stored, and the input of an optimisation of them with these
   * settings, target and optimizer both on the world's model server (target concurrency 8, optimizer 4).
   */
  optimizationInput(settings: CreateOptimizationForInput["settings"], files?: Parameters<typeof writeOptimizationFiles>[1]): Promise<CreateOptimizationForInput>;
}

export function withOptimizerWorld(folderPrefix: string): OptimizerWorld {
  let t: TestDatabase | undefined;
  let server: FakeOpenAIServer | undefined;
  let dir: string | undefined;
  beforeEach(async () => {
    t = createTestDb();
    server = await startFakeOpenAIServer({ answer: (req) => optimizerAnswer(req) });
    dir = mkdtempSync(join(tmpdir(), folderPrefix));
  });
  afterEach(async () => {
    await server?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the optimiser world exists only inside a test");
    return value;
  };
  return {
    get db() {
      return started(t).db;
    },
    get server() {
      return started(server);
    },
    get dir() {
      return started(dir);
    },
    async renewDatabase() {
      await started(t).close();
      t = createTestDb();
    },
    async optimizationInput(settings, files) {
      const db = started(t).db;
      const written = writeOptimizationFiles(started(dir), files);
      const [train, val, test] = [await importDatasetFile(db, written.train), await importDatasetFile(db, written.val), await importDatasetFile(db, written.test)];
      const { version } = await addSkillFile(db, written.skill);
      const model = { backend: "openai" as const, model: "fake", baseURL: started(server).baseURL };
      return {
        skillVersionId: version.id, trainDatasetId: train.id, valDatasetId: val.id, testDatasetId: test.id,
        settings,
        targetConfig: { model, settings: RunSettingsSchema.parse({ concurrency: 8 }) },
        optimizer: { ...model, concurrency: 4 },
      };
    },
  };
}
