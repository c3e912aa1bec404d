/**
 * An optimisation as SkillOpt's own output directory (the `out_root` skillopt/engine/trainer.py writes), so tools
 * written for SkillOpt read our optimisations. `skillOptFiles` is a pure function of the stored rows; `writeSkillOptDir`
 * writes its result. JSON is written as upstream's `json.dump(..., indent=2, ensure_ascii=False)` writes it.
 *
 * Written: config.json, history.json, skills/skill_vNNNN.md (upstream's overwrite rule: the skill after the LAST stage
 * of each global step, so an epoch's slow update replaces its last step's file), best_skill.md, summary.json (completed
 * optimisations), steps/step_NNNN/step_record.json and candidate_skill.md, the analyst patches
 * (steps/step_NNNN/[batch_A/]patches/minibatch_{fail,succ}_NNN.json, from the stored replies with upstream's parsing),
 * slow_update/epoch_NN/slow_result.json and candidate_skill.md, meta_skill/epoch_NN/meta_skill_result.json, and
 * skillboard.json (Skillboard's own extras for a lossless `optimize import`, skillopt-extras.ts; upstream never reads it).
 *
 * Not written, because the stored rows cannot fill them truthfully:
 * - merged_patch.json, ranked_edits.json: the merged and ranked patch objects are not stored whole (only the ranked
 *   edits' op/target/content/support, not the patches' other keys or the merge fallback's exact result);
 * - edit_apply_report.json, trajectory_digest.json: upstream's row shapes are not stored (the edits' apply status is
 *   in the database, the step buffer only in memory);
 * - runtime_state.json: it holds absolute paths into the directory; upstream resumes from history.json without it;
 * - rollout, selection_eval, test_eval folders (per-item predictions, conversations and their summaries): those are
 *   Skillboard runs, exported with `export` per run; comparison pairs (comparison_pairs.json): not stored;
 * - lr_decision.json / lr_history.jsonl, rewrite results, appendix notes: modes Skillboard refuses;
 * - summary.json's `token_summary`: upstream counts target-model tokens per stage too, which runs do not record that way.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { getDataset, getOptimization, getSkillVersion, listOptimizationEditsOf, listOptimizationSteps, listOptimizerCalls, type Db } from "../db";
import { PyFloat, pyJsonDumps, type PyJson } from "../export/python-json";
import { parseAnalystReply } from "./loop/replies";
import { pyJsonLoads } from "./py-json";
import { flatSkillOptConfig } from "./skillopt-config";
import { callToJson, editToJson, SKILLBOARD_FILE, SKILLBOARD_FORMAT, type ExportCall, type ExportEdit } from "./skillopt-extras";

export { SKILLBOARD_FILE, SKILLBOARD_FORMAT };

type Dict = Record<string, PyJson>;

export interface SkillOptExportStage {
  key: string;
  kind: string;
  epoch: number;
  globalStep: number;
  action: string | null;
  approval: string | null;
  editBudget: number | null;
  candidateVersionId: number | null;
  currentVersionId: number | null;
  bestVersionId: number | null;
  recordJson: string;
  stateJson: string;
  gateJson: string | null;
  batchItemIdsJson: string;
  /** The stage's ranked edits, in order. */
  edits?: readonly ExportEdit[];
}

export interface SkillOptExportInput {
  optimization: {
    name: string | null; status: string; stopReason: string | null; settingsJson: string; summaryJson: string | null; initialVersionId: number; bestVersionId: number | null;
    targetConfigJson?: string; optimizerJson?: string; targetCalls?: number; optimizerCalls?: number; optimizerTokens?: number;
  };
  /** In stage order. */
  stages: readonly SkillOptExportStage[];
  /** Every optimizer call, with its text (the analyst replies also become upstream's patch files). */
  calls: readonly ExportCall[];
  /** Skill version id → content, for every version the stages name. */
  skills: ReadonlyMap<number, string>;
  /** The train split's size (config.json's resolved `train_size`), when known. */
  trainSize: number | null;
}

export interface ExportFile {
  path: string;
  content: string;
}


/** Keys upstream always holds as Python floats: printed `1.0`, not `1` (the stored JSON lost the distinction). */
const FLOAT_KEYS = new Set([
  "rollout_hard", "rollout_soft", "hard", "soft", "selection_hard", "selection_soft", "current_score", "best_score", "candidate_gate_score",
  "prev_hard", "curr_hard", "time_s", "wall_time_s", "rollout_s", "reflect_s", "aggregate_s", "select_s", "update_s", "evaluate_s",
  "baseline_selection_hard", "best_selection_hard", "final_selection_hard", "final_selection_soft", "best_score_at_epoch_end", "current_score_at_epoch_end",
  "baseline_test_hard", "baseline_test_soft", "test_hard", "test_soft", "final_test_hard", "final_test_soft", "test_delta_hard", "final_test_delta_hard",
  "total_wall_time_s",
]);

/** The stored JSON with upstream's float keys marked as floats (recursively; other numbers as they are). */
export function withPyFloats(value: PyJson, key?: string): PyJson {
  if (typeof value === "number") return key !== undefined && FLOAT_KEYS.has(key) ? new PyFloat(value) : value;
  if (Array.isArray(value)) return value.map((item: PyJson) => withPyFloats(item, key));
  if (value !== null && typeof value === "object" && !(value instanceof PyFloat)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withPyFloats(v as PyJson, k)]));
  }
  return value;
}

export const dumpJson = (value: PyJson) => pyJsonDumps(value, { indent: 2 });
const loads = (text: string) => pyJsonLoads(text);
const pad = (n: number, width: number) => String(n).padStart(width, "0");
const stepDir = (globalStep: number) => `steps/step_${pad(globalStep, 4)}`;

/** The analyst call key's parts (lib/optimize/loop/keys.ts `analystCallKey`). */
const ANALYST_KEY = /^step:(\d{4})\/batch:(\d+)\/analyst\/(failure|success)\/(\d{3})$/;

export function skillOptFiles(input: SkillOptExportInput): ExportFile[] {
  const { optimization, stages } = input;
  const files: ExportFile[] = [];
  const add = (path: string, content: string) => files.push({ path, content });
  const skill = (id: number | null | undefined) => {
    if (id === null || id === undefined) return null;
    const content = input.skills.get(id);
    if (content === undefined) throw new Error(`skill version ${id} is missing from the export input`);
    return content;
  };
  const settings = JSON.parse(optimization.settingsJson) as Record<string, unknown>;
  // An imported optimisation keeps the config.json it came with (secrets dropped); an executed one is flattened.
  const config = (settings.upstream_config as Dict | undefined) ?? flatSkillOptConfig(settings, input.trainSize);
  add("config.json", dumpJson(config));

  const steps = stages.filter((stage) => stage.kind === "step");
  const records = steps.map((stage) => withPyFloats(loads(stage.recordJson)));
  add("history.json", dumpJson(records));

  add("skills/skill_v0000.md", skill(optimization.initialVersionId)!);
  const lastByStep = new Map<number, SkillOptExportStage>();
  for (const stage of stages) if (["step", "slow_update", "meta_skill"].includes(stage.kind) && stage.globalStep > 0) lastByStep.set(stage.globalStep, stage);
  for (const [globalStep, stage] of [...lastByStep].sort(([a], [b]) => a - b)) {
    const content = skill(stage.currentVersionId);
    if (content !== null) add(`skills/skill_v${pad(globalStep, 4)}.md`, content);
  }
  const best = skill(optimization.bestVersionId);
  if (best !== null) add("best_skill.md", best);

  const accumulation = Number((settings.train as { accumulation?: number } | undefined)?.accumulation ?? (config.accumulation as number | undefined) ?? 1);
  const editBudget = Number((settings.optimizer as { learning_rate?: number } | undefined)?.learning_rate ?? (config.edit_budget as number | undefined) ?? 4);
  const patchesByStep = new Map<number, ExportFile[]>();
  for (const call of input.calls.filter((row) => row.stage === "analyst")) {
    const match = ANALYST_KEY.exec(call.key);
    if (!match || call.reply === null) continue;
    const [, step, batch, kind, minibatch] = match;
    const patch = parseAnalystReply(call.reply, kind as "failure" | "success", editBudget);
    if (!patch) continue; // upstream saves no file for a minibatch whose analyst returned nothing usable
    const dir = `${stepDir(Number(step))}/${accumulation > 1 ? `batch_${batch}/` : ""}patches`;
    const list = patchesByStep.get(Number(step)) ?? [];
    list.push({ path: `${dir}/minibatch_${kind === "failure" ? "fail" : "succ"}_${minibatch}.json`, content: dumpJson(patch) });
    patchesByStep.set(Number(step), list);
  }
  steps.forEach((stage, index) => {
    const dir = stepDir(stage.globalStep);
    add(`${dir}/step_record.json`, dumpJson(records[index]!));
    const candidate = skill(stage.candidateVersionId);
    if (candidate !== null) add(`${dir}/candidate_skill.md`, candidate);
    for (const file of patchesByStep.get(stage.globalStep) ?? []) add(file.path, file.content);
  });

  for (const stage of stages) {
    const dir = `${stage.kind === "slow_update" ? "slow_update" : "meta_skill"}/epoch_${pad(stage.epoch, 2)}`;
    if (stage.kind === "slow_update") {
      const record = withPyFloats(loads(stage.recordJson)) as Dict;
      // Upstream writes the candidate only when the slow update produced guidance (not for the placeholder).
      if (record.slow_update_content !== undefined && stage.candidateVersionId !== null) add(`${dir}/candidate_skill.md`, skill(stage.candidateVersionId)!);
      add(`${dir}/slow_result.json`, dumpJson(record));
    } else if (stage.kind === "meta_skill") {
      add(`${dir}/meta_skill_result.json`, dumpJson(withPyFloats(loads(stage.recordJson))));
    }
  }

  if (optimization.summaryJson) {
    const summary = withPyFloats(loads(optimization.summaryJson)) as Dict;
    add("summary.json", dumpJson({ ...summary, config }));
  }
  add(SKILLBOARD_FILE, dumpJson(skillboardExtras(input, settings)));
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What SkillOpt's layout has no place for: the stages' Skillboard fields, the baseline and final records. */
function skillboardExtras(input: SkillOptExportInput, settings: Record<string, unknown>): Dict {
  const { optimization } = input;
  return {
    format: SKILLBOARD_FORMAT,
    version: 2,
    note: "Skillboard's additions to this SkillOpt output directory (read by `optimize import`; SkillOpt ignores this file).",
    name: optimization.name,
    status: optimization.status,
    stop_reason: optimization.stopReason,
    skillboard_settings: (settings.skillboard as Dict | undefined) ?? null,
    target_config: optimization.targetConfigJson ? loads(optimization.targetConfigJson) : null,
    optimizer: optimization.optimizerJson ? loads(optimization.optimizerJson) : null,
    spend: { target_calls: optimization.targetCalls ?? 0, optimizer_calls: optimization.optimizerCalls ?? 0, optimizer_tokens: optimization.optimizerTokens ?? 0 },
    stages: input.stages.map((stage) => ({
      key: stage.key,
      kind: stage.kind,
      epoch: stage.epoch,
      global_step: stage.globalStep,
      action: stage.action,
      approval: stage.approval,
      edit_budget: stage.editBudget,
      batch_item_ids: loads(stage.batchItemIdsJson),
      state: withPyFloats(loads(stage.stateJson)),
      gate: stage.gateJson === null ? null : loads(stage.gateJson),
      ...(stage.kind === "baseline" || stage.kind === "final" ? { record: withPyFloats(loads(stage.recordJson)) } : {}),
      edits: (stage.edits ?? []).map(editToJson),
    })),
    calls: input.calls.map(callToJson),
  };
}

/** The export's input, read from the database. */
export async function loadSkillOptExport(db: Db, optimizationId: number): Promise<SkillOptExportInput> {
  const optimization = await getOptimization(db, optimizationId);
  const steps = await listOptimizationSteps(db, optimizationId);
  const edits = await listOptimizationEditsOf(db, optimizationId);
  const stages = steps.map((step) => ({ ...step, edits: edits.filter((edit) => edit.stepId === step.id) }));
  const calls = await listOptimizerCalls(db, optimizationId);
  const ids = new Set<number>([optimization.initialVersionId]);
  if (optimization.bestVersionId !== null) ids.add(optimization.bestVersionId);
  for (const stage of stages) for (const id of [stage.candidateVersionId, stage.currentVersionId, stage.bestVersionId]) if (id !== null) ids.add(id);
  const skills = new Map<number, string>();
  for (const id of ids) skills.set(id, (await getSkillVersion(db, id)).content);
  // Imported optimisations have no datasets (NO_DATASET); their config.json carries train_size itself.
  const trainSize = optimization.source === "executed" ? (await getDataset(db, optimization.trainDatasetId)).itemCount : null;
  return { optimization, stages, calls, skills, trainSize };
}

/**
 * Writes the files under `dir`, refusing a non-empty directory unless `force`. Forced, it overwrites the files it writes
 * and deletes nothing else (a mistyped directory must never lose unrelated files).
 */
export function writeSkillOptDir(dir: string, files: readonly ExportFile[], options: { force?: boolean } = {}): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    if (!options.force) throw new ExportDirNotEmptyError(dir);
  }
  mkdirSync(dir, { recursive: true });
  for (const file of files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content, "utf8");
  }
}

export class ExportDirNotEmptyError extends Error {
  constructor(readonly dir: string) {
    super(`${dir} is not empty (use --force to replace its contents)`);
    this.name = "ExportDirNotEmptyError";
  }
}
