// Importing results: a Skillboard JSONL export comes back as the same items and metrics (searchable, with
// conversations); the seed's results.jsonl imports with or without its dataset; a repeated id keeps its last row;
// bad lines are reported by line number and nothing is stored.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatasetValidationError } from "@/lib/datasets";
import {
  countItemsByFilter, getDatasetItems, getItemConversation, getRun, importDataset, listRunRecords, retryFailedItems, type Db,
} from "@/lib/db";
import { exportRunResults, type ExportFormat } from "@/lib/export/run-export";
import { importResults } from "@/lib/import";
import { createRunFor, executeRun } from "@/lib/rollout";
import { type StoredItemResult } from "@/lib/runs";
import { describeBackends } from "@/app/_lib/backends";
import { startRunDefaults } from "@/app/runs/_lib/start-run-defaults";
import { runCli } from "../support/cli";
import { writeTrickyRun } from "../support/export-fixtures";
import { storedResults } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

async function exported(db: Db, runId: number, format: ExportFormat): Promise<string> {
  const chunks: string[] = [];
  for await (const chunk of exportRunResults(db, runId, format)) chunks.push(chunk);
  return chunks.join("");
}

async function counts(db: Db) {
  return { runs: await db.run.count(), datasets: await db.dataset.count(), results: await db.runResult.count() };
}

describe("importing results", () => {
  let t: TestDatabase;
  let runId = 0;

  beforeAll(async () => {
    t = createTestDb();
    ({ runId } = await writeTrickyRun(t.db, 80));
  });
  afterAll(() => t.close());

  it("round trip: a JSONL export imported back gives the same items, metrics and conversations", async () => {
    const text = await exported(t.db, runId, "jsonl");
    const outcome = await importResults(t.db, [text], { file: "export.jsonl", name: "round trip" });
    const [before, after] = [await getRun(t.db, runId), await getRun(t.db, outcome.runId)];
    expect(after.source).toBe("imported");
    expect(after.status).toBe("completed");
    for (const key of ["nDone", "emSum", "f1Sum", "subEmSum", "nAgentOk", "nErrors", "nTimeouts", "promptTokens", "completionTokens", "latencyMsSum"] as const) {
      expect(after[key], key).toBeCloseTo(before[key], 9);
    }
    const strip = (row: StoredItemResult) => ({ ...row, datasetItemId: 0 });
    expect((await storedResults(t.db, outcome.runId)).map(strip)).toEqual((await storedResults(t.db, runId)).map(strip));
    const firstId = (await storedResults(t.db, runId))[0]!.itemId;
    expect(await getItemConversation(t.db, outcome.runId, firstId)).toEqual(await getItemConversation(t.db, runId, firstId));
    // Searchable like any run: the FTS index was written with the rows.
    expect((await countItemsByFilter(t.db, outcome.runId, "Zürich")).all).toBe((await countItemsByFilter(t.db, runId, "Zürich")).all);
    expect((await countItemsByFilter(t.db, outcome.runId, "Zürich")).all).toBeGreaterThan(0);
    expect(outcome.datasetCreated).toBe(true);
  });

  it("the seed's results.jsonl: without a dataset one is made from the rows; timeouts and errors keep their status", async () => {
    const text = await exported(t.db, runId, "seed");
    const outcome = await importResults(t.db, [text], { file: "results.jsonl" });
    const source = await storedResults(t.db, runId);
    const imported = await storedResults(t.db, outcome.runId);
    expect(imported.map((r) => [r.itemId, r.status, r.em, r.f1, r.subEm, r.predictedAnswer, r.failReason])).toEqual(
      source.map((r) => [r.itemId, r.status, r.em, r.f1, r.subEm, r.predictedAnswer, r.failReason]),
    );
    const items = await getDatasetItems(t.db, outcome.datasetId);
    expect(items.map((item) => [item.id, item.question, item.answers, item.context])).toEqual(source.map((r) => [r.itemId, r.question, r.goldAnswers, ""]));
    const run = await getRun(t.db, outcome.runId);
    expect(run.emSum).toBeCloseTo((await getRun(t.db, runId)).emSum, 9);
    expect(run.nTimeouts).toBe(source.filter((r) => r.status === "timeout").length);
    // Against that dataset now: ids match.
    const again = await importResults(t.db, [text], { file: "results.jsonl", datasetId: outcome.datasetId });
    expect(again.datasetId).toBe(outcome.datasetId);
    expect(again.datasetCreated).toBe(false);
    // Nothing says which model produced it, so an imported run is never executed here.
    expect(run.nErrors + run.nTimeouts).toBeGreaterThan(0);
    await expect(retryFailedItems(t.db, outcome.runId)).rejects.toThrow(/imported/);
    await expect(executeRun(t.db, outcome.runId)).rejects.toThrow(/imported from a results file/);
    expect((await getRun(t.db, outcome.runId)).status).toBe("completed");
    expect(run.config.model).toEqual({ backend: "imported" });
    // "Run again" with its settings says why not, and stores nothing; "Copy settings" falls back to a real backend.
    const before = (await listRunRecords(t.db)).length;
    await expect(createRunFor(t.db, { datasetId: run.datasetId, skillVersionId: run.skillVersionId, config: run.config })).rejects.toThrow(
      /does not say which model produced them: start a new run and choose a backend and model/,
    );
    expect(await listRunRecords(t.db)).toHaveLength(before);
    const env = { OPENAI_API_KEY: "sk-test", SKILLBOARD_MODEL: "gpt-test" };
    expect(startRunDefaults({ backends: describeBackends(env), from: run })).toMatchObject({ backend: "openai", model: "gpt-test" });
  });

  it("a repeated id keeps its last row, as the seed's resume reads the file", async () => {
    const row = (id: string, em: number) =>
      JSON.stringify({ id, question: "q?", em, f1: em, sub_em: em, hard: em, soft: em, predicted_answer: em ? "a" : "b", gold_answers: ["a"], response: "", fail_reason: "", agent_ok: true, n_turns: 1 });
    const outcome = await importResults(t.db, [`${row("x", 0)}\n${row("y", 1)}\n${row("x", 1)}\n`], { file: "resumed.jsonl" });
    expect(outcome.duplicatesDropped).toBe(1);
    const rows = await storedResults(t.db, outcome.runId);
    expect(rows.map((r) => [r.itemId, r.em, r.status])).toEqual([["y", 1, "correct"], ["x", 1, "correct"]]);
    expect((await getRun(t.db, outcome.runId)).emSum).toBe(2);
  });

  it("bad lines are reported by line number and field, and nothing is stored", async () => {
    const good = (await exported(t.db, runId, "seed")).split("\n")[0]!;
    const file = [good, "{not json", "", good.replace('"em": ', '"em": "x", "was": '), JSON.stringify({ id: "z", phase: "timeout" }), "[1]"].join("\n");
    const before = await counts(t.db);
    const error = await importResults(t.db, [file], { file: "bad.jsonl" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetValidationError);
    const issues = (error as DatasetValidationError).issues;
    expect(issues.map((issue) => issue.line)).toEqual(expect.arrayContaining([2, 4, 5, 6]));
    expect(issues.find((issue) => issue.line === 4)?.field).toBe("em");
    expect((error as Error).message).toMatch(/^bad\.jsonl: line 2: not valid JSON/);
    expect(issues.some((issue) => issue.line === 1)).toBe(false);
    expect(await counts(t.db)).toEqual(before);
  });

  it("with a dataset, ids that are not its items are reported by line; nothing is stored", async () => {
    const dataset = await importDataset(t.db, {
      name: "small", fileName: "small.jsonl", format: "jsonl", hash: "small", items: [{ id: "known", question: "q?", context: "", answers: ["a"] }],
    });
    const row = (id: string) =>
      JSON.stringify({ id, question: "q?", em: 1.0, f1: 1.0, sub_em: 1.0, hard: 1, soft: 1.0, predicted_answer: "a", gold_answers: ["a"], response: "", fail_reason: "", agent_ok: true, n_turns: 1 });
    const before = await counts(t.db);
    const error = await importResults(t.db, [`${row("known")}\n${row("stranger")}\n`], { file: "r.jsonl", datasetId: dataset.id }).catch((e: unknown) => e);
    expect((error as DatasetValidationError).issues).toEqual([{ line: 2, field: "id", message: `"stranger" is not an item of dataset ${dataset.id} ("small")` }]);
    expect(await counts(t.db)).toEqual(before);
  });

  it("CLI: import prints the run id; a bad file exits 2 naming the line and stores nothing", async () => {
    const good = join(t.dir, "results.jsonl");
    writeFileSync(good, await exported(t.db, runId, "seed"));
    const ok = await runCli(["import", good, "--name", "from the seed"], { databaseUrl: t.url });
    expect(ok.code, ok.stderr).toBe(0);
    const importedId = Number(ok.stdout.trim());
    expect((await getRun(t.db, importedId)).name).toBe("from the seed");
    const bad = join(t.dir, "bad.jsonl");
    writeFileSync(bad, `${(await exported(t.db, runId, "seed")).split("\n")[0]}\n{oops\n`);
    const before = await counts(t.db);
    const failed = await runCli(["import", bad], { databaseUrl: t.url });
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("bad.jsonl: line 2: not valid JSON");
    expect(await counts(t.db)).toEqual(before);
  });
});
