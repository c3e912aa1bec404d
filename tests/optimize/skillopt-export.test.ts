import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSkillVersion, listOptimizationSteps } from "@/lib/db";
import { loadSkillOptExport, skillOptFiles, type ExportFile } from "@/lib/optimize/skillopt-export";
import { runCli } from "../support/cli";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { optimizerAnswer } from "../support/fake-optimizer";
import { SMALL_LOOP, writeOptimizationFiles } from "../support/optimize-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

/** trainer.py's step_rec keys, in the order it sets them, for a gated patch-mode step and a step with no patches. */
const GATED_STEP_KEYS = [
  "step", "epoch", "step_in_epoch", "timing", "tokens", "rollout_hard", "rollout_soft", "rollout_n", "accumulation_batches",
  "n_patches", "n_failure_patches", "n_success_patches", "n_edits_merged", "n_edits_ranked", "edit_budget", "lr_control_mode",
  "support_counts", "candidate_hash", "candidate_skill_len", "edit_apply_summary", "selection_hard", "selection_soft", "gate_metric",
  "candidate_gate_score", "action", "current_score", "best_score", "best_step", "current_origin", "best_origin", "skill_len", "wall_time_s",
];
const SKIPPED_STEP_KEYS = [
  "step", "epoch", "step_in_epoch", "timing", "tokens", "rollout_hard", "rollout_soft", "rollout_n", "accumulation_batches",
  "n_patches", "n_failure_patches", "n_success_patches", "action", "current_score", "best_score", "best_step", "skill_len", "wall_time_s",
];

let server: FakeOpenAIServer;
let dir: string;
let database: TestDatabase;
let files: ExportFile[];
const file = (path: string) => {
  const found = files.find((f) => f.path === path);
  if (!found) throw new Error(`${path} was not exported`);
  return found.content;
};

beforeAll(async () => {
  server = await startFakeOpenAIServer({ answer: (req) => optimizerAnswer(req) });
  dir = mkdtempSync(join(tmpdir(), "skillboard-skillopt-export-"));
  database = createTestDb();
  const inputs = writeOptimizationFiles(dir);
  const args = ["optimize", "start", "--train", inputs.train, "--val", inputs.val, "--test", inputs.test, "--skill", inputs.skill, "--base-url", server.baseURL, "--model", "fake", ...SMALL_LOOP];
  const result = await runCli(args, { databaseUrl: database.url, env: { OPENAI_API_KEY: "sk-test" } });
  expect(result.code, result.stderr).toBe(0);
  files = skillOptFiles(await loadSkillOptExport(database.db, 1));
}, 120_000);
afterAll(async () => {
  await server.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("skillopt export", () => {
  it("writes SkillOpt's layout: exactly these files for 2 epochs of 3 steps with slow update and meta skill", () => {
    const steps = [1, 2, 3, 4, 5, 6].map((n) => `steps/step_000${n}`);
    const patches = files.filter((f) => /\/patches\/minibatch_(fail|succ)_\d{3}\.json$/.test(f.path)).map((f) => f.path);
    expect(files.map((f) => f.path).filter((path) => !patches.includes(path))).toEqual([
      "best_skill.md", "config.json", "history.json",
      "meta_skill/epoch_01/meta_skill_result.json", "meta_skill/epoch_02/meta_skill_result.json",
      "skillboard.json",
      ...[0, 1, 2, 3, 4, 5, 6].map((n) => `skills/skill_v000${n}.md`),
      "slow_update/epoch_01/slow_result.json", "slow_update/epoch_02/candidate_skill.md", "slow_update/epoch_02/slow_result.json",
      // Step 3 had no usable patches: upstream writes no candidate for it.
      `${steps[0]}/candidate_skill.md`, `${steps[0]}/step_record.json`,
      `${steps[1]}/candidate_skill.md`, `${steps[1]}/step_record.json`,
      `${steps[2]}/step_record.json`,
      `${steps[3]}/candidate_skill.md`, `${steps[3]}/step_record.json`,
      `${steps[4]}/candidate_skill.md`, `${steps[4]}/step_record.json`,
      `${steps[5]}/candidate_skill.md`, `${steps[5]}/step_record.json`,
      "summary.json",
    ]);
    expect(patches).toContain("steps/step_0001/patches/minibatch_fail_000.json");
    for (const path of patches) {
      const patch = JSON.parse(file(path)) as Record<string, unknown>;
      expect(patch.source_type, path).toBe(path.includes("_fail_") ? "failure" : "success");
      expect(Object.keys(patch), path).toContain("patch");
    }
  });

  it("writes history.json with upstream's step record keys, in upstream's order, and its floats as Python writes them", () => {
    const history = JSON.parse(file("history.json")) as Record<string, unknown>[];
    expect(history.map((record) => record.step)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const record of history) expect(Object.keys(record)).toEqual(record.action === "skip_no_patches" ? SKIPPED_STEP_KEYS : GATED_STEP_KEYS);
    for (const record of history) expect(JSON.parse(file(`steps/step_000${String(record.step)}/step_record.json`))).toEqual(record);
    // Python floats keep their ".0"; json.dump(indent=2) layout.
    expect(file("history.json")).toMatch(/\n {6}"aggregate_s": 0\.0,\n/);
    expect(file("history.json")).toMatch(/"selection_hard": 1\.0,/);
    expect(file("history.json").startsWith("[\n  {\n    \"step\": 1,\n")).toBe(true);
  });

  it("follows upstream's overwrite rule: skills/skill_vNNNN.md is the skill after the last stage of each global step", async () => {
    const stages = await listOptimizationSteps(database.db, 1);
    const byKey = new Map(stages.map((stage) => [stage.key, stage]));
    const content = async (id: number | null) => (await getSkillVersion(database.db, id!)).content;
    // Step 3 ended epoch 1; the slow update's placeholder replaced its file.
    expect(file("skills/skill_v0003.md")).toBe(await content(byKey.get("slow:01")!.currentVersionId));
    expect(file("skills/skill_v0003.md")).not.toBe(await content(byKey.get("step:0003")!.currentVersionId));
    expect(file("skills/skill_v0003.md")).toContain("<!-- SLOW_UPDATE_START -->");
    expect(file("skills/skill_v0006.md")).toBe(file("slow_update/epoch_02/candidate_skill.md"));
    expect(file("skills/skill_v0002.md")).toBe(await content(byKey.get("step:0002")!.currentVersionId));
    expect(file("best_skill.md")).toBe(file("steps/step_0002/candidate_skill.md"));
  });

  it("writes config.json flat with upstream's key names, and summary.json with that config and no secret", () => {
    const config = JSON.parse(file("config.json")) as Record<string, unknown>;
    expect(config).toMatchObject({ edit_budget: 4, min_edit_budget: 2, num_epochs: 2, train_size: 24, batch_size: 8, steps_per_epoch: 3, env: "searchqa" });
    expect(config).not.toHaveProperty("learning_rate");
    expect(config).not.toHaveProperty("skillboard");
    const summary = JSON.parse(file("summary.json")) as Record<string, unknown>;
    expect(summary.config).toEqual(config);
    expect(summary).toMatchObject({ version: "skillopt-0.1.0", total_steps: 6, best_step: 2 });
    expect(files.map((f) => f.content).join("\n")).not.toContain("sk-test");
  });
});
