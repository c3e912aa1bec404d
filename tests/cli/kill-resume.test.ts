// A run killed at an arbitrary moment (SIGKILL: no chance to clean up) and resumed by id
// loses nothing and repeats nothing that was stored.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { countRunResults, getRun } from "@/lib/db";
import { INITIAL_SKILL, runCli, spawnCli } from "../support/cli";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { makeItems, storedResults } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;
beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer({ latencyMs: 40 });
});
afterEach(async () => {
  await server.close();
  await t.close();
});

it("resumes a SIGKILLed run: every item ends with exactly one result and stored items are not re-run", async () => {
  const total = 200;
  const items = makeItems(total);
  const file = join(t.dir, "items.jsonl");
  writeFileSync(file, items.map((item) => JSON.stringify(item)).join("\n"));
  const args = ["run", "--dataset", file, "--skill", INITIAL_SKILL, "--base-url", server.baseURL, "--concurrency", "4"];

  const child = spawnCli(args, { databaseUrl: t.url });
  let stderr = "";
  let exited = false;
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.on("exit", () => (exited = true));
  // Killed once a batch of results is committed (the writer commits every 0.5 s), well before the last item.
  while ((await countRunResults(t.db, 1)) === 0) {
    if (exited) throw new Error(`CLI exited before it could be killed:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(stderr.split("\n")[0]).toBe("run 1 started");
  child.kill("SIGKILL");
  await new Promise((resolve) => child.on("close", resolve));

  const beforeResume = await storedResults(t.db, 1);
  expect(beforeResume.length).toBeGreaterThan(0);
  expect(beforeResume.length).toBeLessThan(total);
  // The stored counters agree with the stored rows even after a kill.
  expect((await getRun(t.db, 1)).nDone).toBe(beforeResume.length);

  server.requests.length = 0;
  const resumed = await runCli(["run", "--resume", "1"], { databaseUrl: t.url });
  expect(resumed.code).toBe(0);
  expect(resumed.stderr).toContain(`[rollout] resuming: ${beforeResume.length}/${total} already done`);
  expect(JSON.parse(resumed.stdout)).toMatchObject({ run_id: 1, status: "completed", n: total, em: 1 });

  const after = await storedResults(t.db, 1);
  expect(after).toHaveLength(total);
  expect(new Set(after.map((r) => r.itemId)).size).toBe(total);
  expect(after.map((r) => r.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  expect(after.slice(0, beforeResume.length)).toEqual(beforeResume);
  const storedQuestions = new Set(beforeResume.map((r) => r.question));
  expect(server.requests.filter((r) => storedQuestions.has(r.question))).toEqual([]);
  expect(server.requests.length).toBe(total - beforeResume.length);
});

it("pauses on Ctrl-C as interrupted (exit 130) with the summary line, and resumes to completion", async () => {
  const file = join(t.dir, "items.jsonl");
  writeFileSync(file, makeItems(60).map((item) => JSON.stringify(item)).join("\n"));
  const child = spawnCli(["run", "--dataset", file, "--skill", INITIAL_SKILL, "--base-url", server.baseURL, "--concurrency", "3"], {
    databaseUrl: t.url,
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  await new Promise<void>((resolve) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/\[rollout\] 1\d\/60/.test(stderr)) resolve();
    });
  });
  child.kill("SIGINT");
  const code = await new Promise((resolve) => child.on("close", resolve));
  expect(code).toBe(130);
  expect(stderr).toContain("resume with --resume 1");
  const summary = JSON.parse(stdout) as { status: string; n: number };
  expect(summary.status).toBe("interrupted");
  expect((await storedResults(t.db, 1)).length).toBe(summary.n);

  const resumed = await runCli(["run", "--resume", "1"], { databaseUrl: t.url });
  expect(resumed.code).toBe(0);
  expect(JSON.parse(resumed.stdout)).toMatchObject({ status: "completed", n: 60 });
});
