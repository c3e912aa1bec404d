// The New run form's server side: every bad input comes back as a message on its field and stores nothing;
// a good one stores a queued run with the settings and the model the form chose.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addSkillVersion, importDataset, listRunRecords } from "@/lib/db";
import { startRunFromForm } from "@/app/runs/_lib/start-run-form";
import { makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

const OPENAI_ENV = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", SKILLBOARD_MODEL: "test-model" };

let t: TestDatabase;
let datasetId: number;
let skillVersionId: number;
beforeEach(async () => {
  t = createTestDb();
  datasetId = (await importDataset(t.db, { name: "d", fileName: "d.jsonl", format: "jsonl", hash: "h", items: makeItems(20) })).id;
  skillVersionId = (await addSkillVersion(t.db, { name: "s", content: "Answer briefly." })).version.id;
});
afterEach(() => t.close());

function form(fields: Record<string, string | undefined>): FormData {
  const data = new FormData();
  const base: Record<string, string | undefined> = {
    datasetId: String(datasetId), skillVersionId: String(skillVersionId), backend: "openai", model: "",
    concurrency: "16", maxTurns: "1", execTimeoutS: "120", taskTimeoutS: "600", maxCompletionTokens: "16384",
    maxRetries: "5", temperature: "", selection: "all", name: "",
  };
  for (const [key, value] of Object.entries({ ...base, ...fields })) if (value !== undefined) data.set(key, value);
  return data;
}

async function expectRejected(fields: Record<string, string | undefined>, env: Record<string, string> = OPENAI_ENV) {
  const result = await startRunFromForm(t.db, form(fields), env);
  expect(result.ok).toBe(false);
  expect(await listRunRecords(t.db)).toEqual([]);
  return result.ok ? {} : (result.fields ?? {});
}

describe("startRunFromForm", () => {
  it("stores a queued run with the chosen settings, model and the server's redacted base URL", async () => {
    const result = await startRunFromForm(t.db, form({ concurrency: "4", selection: "sample", sampleSize: "5", sampleSeed: "7", temperature: "0.2", name: "first" }), OPENAI_ENV);
    expect(result).toEqual({ ok: true, data: { runId: expect.any(Number) } });
    const [run] = await listRunRecords(t.db);
    expect(run).toMatchObject({ status: "queued", name: "first", model: "test-model", backend: "openai", itemsTotal: 5 });
    expect(run?.config.model).toEqual({ backend: "openai", model: "test-model", baseURL: "http://127.0.0.1:9/v1" });
    expect(run?.config.settings).toMatchObject({ concurrency: 4, temperature: 0.2, sample: { size: 5, seed: 7 }, diagnosticMode: false });
    expect(run?.config.settings.limit).toBeUndefined();
  });

  it("runs the offline baseline with no model configured", async () => {
    const result = await startRunFromForm(t.db, form({ backend: "baseline", selection: "limit", limit: "3" }), {});
    expect(result.ok).toBe(true);
    expect((await listRunRecords(t.db))[0]).toMatchObject({ backend: "baseline", itemsTotal: 3 });
  });

  it("names each missing field", async () => {
    const errors = await expectRejected({ datasetId: undefined, skillVersionId: "", backend: undefined, concurrency: undefined, maxTurns: "" });
    expect(errors).toMatchObject({
      datasetId: "Choose a dataset",
      skillVersionId: "Choose a skill version",
      backend: expect.stringContaining("Choose a backend"),
      concurrency: "Concurrency is required",
      maxTurns: "Max turns is required",
    });
  });

  it("rejects wrong types with the field's name", async () => {
    const errors = await expectRejected({ datasetId: "abc", concurrency: "lots", temperature: "warm", backend: "gemini" });
    expect(errors).toMatchObject({
      datasetId: "Dataset must be an id",
      concurrency: "Concurrency must be a number",
      temperature: "Temperature must be a number",
      backend: expect.stringContaining("Choose a backend"),
    });
    // Whole numbers are checked with the ranges, once the types are right.
    expect(await expectRejected({ maxTurns: "1.5" })).toEqual({ maxTurns: "Max turns must be a whole number" });
  });

  it("rejects a concurrency of 0 or 9999 with the allowed range", async () => {
    expect(await expectRejected({ concurrency: "0" })).toEqual({ concurrency: "Concurrency must be at least 1" });
    expect(await expectRejected({ concurrency: "9999" })).toEqual({ concurrency: "Concurrency must be at most 512" });
  });

  it("asks for the numbers a limit or a sample needs, and an instruction for diagnostic mode", async () => {
    expect(await expectRejected({ selection: "limit" })).toHaveProperty("limit", expect.stringContaining("Limit is required"));
    expect(await expectRejected({ selection: "sample", sampleSize: "" })).toHaveProperty("sampleSize", "Sample size is required");
    expect(await expectRejected({ selection: "sample", sampleSize: "0" })).toEqual({ sampleSize: "Sample size must be at least 1" });
    expect(await expectRejected({ diagnosticMode: "on", diagnosticInstruction: "  " })).toHaveProperty("diagnosticInstruction", "Diagnostic mode needs an instruction");
  });

  it("refuses a backend this server has not configured, naming the variables to set", async () => {
    const openai = await expectRejected({ backend: "openai" }, {});
    expect(openai.backend).toMatch(/OpenAI-compatible server is not configured.*OPENAI_BASE_URL.*OPENAI_API_KEY/);
    const azure = await expectRejected({ backend: "azure" }, OPENAI_ENV);
    expect(azure.backend).toMatch(/Azure OpenAI is not configured.*AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY and AZURE_OPENAI_DEPLOYMENT/);
  });

  it("reports a dataset or skill version that does not exist on its field", async () => {
    expect(await expectRejected({ datasetId: "999" })).toEqual({ datasetId: "Dataset 999 does not exist (was it deleted?)" });
    expect(await expectRejected({ skillVersionId: "999" })).toEqual({ skillVersionId: "Skill version 999 does not exist (was it deleted?)" });
  });
});
