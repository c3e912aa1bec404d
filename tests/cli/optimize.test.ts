import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { optimizerAnswer } from "../support/fake-optimizer";
import { SMALL_LOOP, writeOptimizationFiles } from "../support/optimize-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let server: FakeOpenAIServer;
let dir: string;
let files: ReturnType<typeof writeOptimizationFiles>;

beforeAll(async () => {
  server = await startFakeOpenAIServer({ answer: (req) => optimizerAnswer(req) });
  dir = mkdtempSync(join(tmpdir(), "skillboard-optimize-"));
  files = writeOptimizationFiles(dir);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function startArgs(extra: string[] = []) {
  return ["optimize", "start", "--train", files.train, "--val", files.val, "--test", files.test, "--skill", files.skill, "--base-url", server.baseURL, "--model", "fake", ...SMALL_LOOP, ...extra];
}

describe("optimize start", () => {
  let database: TestDatabase;
  beforeAll(() => void (database = createTestDb()));
  afterAll(async () => database.close());

  it("runs the loop to the end and reports it on stdout", async () => {
    const result = await runCli(startArgs(), { databaseUrl: database.url, env: { OPENAI_API_KEY: "sk-test" } });
    expect(result.stderr.split("\n")[0]).toMatch(/^optimization \d+ started$/);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]!);
    expect(summary.status).toBe("completed");
    expect(summary.steps).toBe(6);
    expect(summary.best_val).toBeGreaterThan(summary.initial_val);
    expect(summary.test.best).toBeGreaterThanOrEqual(summary.test.initial);
    expect(result.stderr).toMatch(/\[optimize\] epoch 1 step 1\/6 val \d\.\d{3} → \d\.\d{3} (accepted|rejected)/);
  }, 120_000);
});
