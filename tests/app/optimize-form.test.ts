// The New optimisation form's server side: a good form becomes the engine's input (the split made and reused, the
// models from the server's environment, the loop's settings in upstream's keys); every bad input comes back as a
// message on its field, and no optimisation is stored.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addSkillVersion, importDataset, listDatasetSplitsOf } from "@/lib/db";
import { optimizationInputFromForm, SKILLOPT_DEFAULT, SKILLOPT_PAPER, TARGET_DEFAULTS } from "@/app/optimize/_lib/optimization-form";
import { validateOptimization } from "@/lib/optimize/engine";
import { makeItems } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

const ENV = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", SKILLBOARD_MODEL: "test-model", OPENAI_API_KEY: "sk-form-test" };

let t: TestDatabase;
let datasetId: number;
let skillVersionId: number;
beforeEach(async () => {
  t = createTestDb();
  datasetId = (await importDataset(t.db, { name: "d", fileName: "d.jsonl", format: "jsonl", hash: "h", items: makeItems(30) })).id;
  skillVersionId = (await addSkillVersion(t.db, { name: "s", content: "Answer briefly." })).version.id;
});
afterEach(() => t.close());

function form(fields: Record<string, string | undefined>): FormData {
  const data = new FormData();
  const loop = Object.fromEntries(Object.entries(SKILLOPT_DEFAULT).flatMap(([key, value]) => (typeof value === "boolean" ? (value ? [[key, "on"]] : []) : [[key, value]])));
  const base: Record<string, string | undefined> = {
    skillVersionId: String(skillVersionId), datasetMode: "split", sourceDatasetId: String(datasetId), splitRatio: "2:1:7", splitSeed: "42",
    backend: "openai", model: "", ...TARGET_DEFAULTS, optimizerBackend: "openai", optimizerModel: "", optimizerConcurrency: "16",
    ...loop, gate: "strict", alpha: "0.05", approval: "auto", maxTargetCalls: "", maxOptimizerTokens: "", maxWallS: "", name: "",
  };
  for (const [key, value] of Object.entries({ ...base, ...fields })) if (value !== undefined) data.set(key, value);
  return data;
}

async function fieldsOf(fields: Record<string, string | undefined>) {
  const result = await optimizationInputFromForm(t.db, form(fields), ENV);
  if (result.ok) throw new Error("expected the form to be refused");
  expect(await t.db.optimization.count()).toBe(0);
  return result.fields ?? {};
}

describe("optimizationInputFromForm", () => {
  it("makes the split (reused the next time) and fills the input with the server's models and upstream's keys", async () => {
    const result = await optimizationInputFromForm(t.db, form({ batchSize: "4", gate: "mcnemar", alpha: "0.1", approval: "manual", maxTargetCalls: "500" }), ENV);
    if (!result.ok) throw new Error(result.error);
    const [split] = await listDatasetSplitsOf(t.db, datasetId);
    expect(split!.parts.train.itemCount + split!.parts.val.itemCount + split!.parts.test.itemCount).toBe(30);
    expect(result.input).toMatchObject({
      skillVersionId, trainDatasetId: split!.parts.train.datasetId, valDatasetId: split!.parts.val.datasetId, testDatasetId: split!.parts.test.datasetId,
      targetConfig: { model: { backend: "openai", model: "test-model", baseURL: "http://127.0.0.1:9/v1" }, settings: { concurrency: 24, maxTurns: 1, execTimeoutS: 120 } },
      optimizer: { backend: "openai", model: "test-model", baseURL: "http://127.0.0.1:9/v1", concurrency: 16 },
      settings: { train: { batch_size: 4, num_epochs: 4, train_size: 0 }, optimizer: { use_slow_update: true, slow_update_gate_with_selection: false }, skillboard: { gate: "mcnemar", alpha: 0.1, approval: "manual" } },
      caps: { maxTargetCalls: 500, maxOptimizerTokens: null, maxWallS: null },
    });
    expect(JSON.stringify(result.input)).not.toContain("sk-form-test");
    const again = await optimizationInputFromForm(t.db, form({}), ENV);
    expect(again.ok && again.input.trainDatasetId).toBe(split!.parts.train.datasetId);
    // The seed's rollouts unless asked: measuring inherited val scores is a deviation, off by default.
    expect(again.ok && again.input.settings).toMatchObject({ skillboard: { measure_inherited: false } });
    const measured = await optimizationInputFromForm(t.db, form({ measureInherited: "on" }), ENV);
    expect(measured.ok && measured.input.settings).toMatchObject({ skillboard: { gate: "strict", measure_inherited: true } });
    expect(await listDatasetSplitsOf(t.db, datasetId)).toHaveLength(1);
    await expect(validateOptimization(t.db, result.input)).resolves.toBeDefined();
  });

  it("takes the strict gate without an alpha (the form posts none while its box is disabled)", async () => {
    const result = await optimizationInputFromForm(t.db, form({ alpha: undefined }), ENV);
    expect(result.ok && result.input.settings).toMatchObject({ skillboard: { gate: "strict", alpha: 0.05 } });
  });

  it("the paper preset differs from the default only by the gated slow update", () => {
    expect(SKILLOPT_PAPER).toEqual({ ...SKILLOPT_DEFAULT, slowUpdateGate: true });
    expect(SKILLOPT_DEFAULT).toMatchObject({ epochs: "4", batchSize: "40", minibatchSize: "8", mergeBatchSize: "8", learningRate: "4", minLearningRate: "2", lrScheduler: "cosine" });
  });

  it("answers bad values with a message on their field", async () => {
    expect((await fieldsOf({ batchSize: "0" })).batchSize).toBe("Batch size must be more than 0");
    expect((await fieldsOf({ epochs: "abc" })).epochs).toBe("Epochs must be a number");
    expect((await fieldsOf({ mergeBatchSize: "1" })).mergeBatchSize).toBe("Merge batch size must be at least 2");
    expect((await fieldsOf({ skillVersionId: "" })).skillVersionId).toBe("Choose a skill version");
    expect((await fieldsOf({ sourceDatasetId: "" })).sourceDatasetId).toBe("Choose the dataset to split");
    expect((await fieldsOf({ splitRatio: "2:x:7" })).splitRatio).toMatch(/ratio/i);
    expect((await fieldsOf({ datasetMode: "parts", trainDatasetId: String(datasetId), valDatasetId: String(datasetId) })).valDatasetId).toMatch(/must differ/);
    expect((await fieldsOf({ backend: "azure" })).backend).toMatch(/Azure OpenAI is not configured/);
    expect((await fieldsOf({ concurrency: "0" })).concurrency).toBe("Concurrency must be at least 1");
  });
});
