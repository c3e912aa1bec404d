/**
 * A SkillOpt output directory stored as an optimisation with source "imported": its stages (history.json, the slow
 * update and meta skill results, and skillboard.json's baseline and final when present), every skill it went through
 * as a version of one skill (with parent and origin), and its saved analyst patches as optimizer calls. Everything is
 * read and checked first (skillopt-read.ts); a failure while storing removes what was stored. An imported optimisation
 * is browsable and exportable, never executed (claimOptimization refuses it).
 *
 * A directory Skillboard exported also has skillboard.json (skillopt-extras.ts): then the stages' ranked edits, every
 * optimizer call with its prompt and reply, the model settings and the spend come back as they were.
 *
 * Not imported: from upstream's own files, merged/ranked patches, apply reports and trajectory digests (the edit rows
 * are left empty without skillboard.json) and the prompts of the analyst calls (upstream does not save them: such a
 * call has an empty system/user message and its saved patch as the reply); rollouts and evaluations (SkillOpt's
 * per-item outputs are not Skillboard runs). The datasets are "not recorded" unless the caller names stored ones
 * (`datasets`: the demo names the split of its own dataset that the optimisation was recorded on).
 */
import { basename, resolve } from "node:path";
import {
  addSkillVersion, createOptimization, finishOptimization, getSkillVersion, removeFailedImport, saveOptimizationStep, saveOptimizerCall, updateOptimizationProgress, type Db,
} from "../db";
import { isPyDict, pyJsonDumps, type PyJson } from "../export/python-json";
import { injectEmptySlowUpdateField } from "./slow-update-field";
import { sectionedSettings } from "./skillopt-config";
import { jsonFieldOf, numberIn } from "./skillopt-extras";
import { readSkillOptDir, type ReadStage, type SkillOptDir } from "./skillopt-read";

type Dict = { readonly [key: string]: PyJson };

/** Imported optimisations have no datasets; the dataset id columns (required, no foreign key) hold this. */
export const NO_DATASET = 0;
const ACCEPTED = new Set(["accept", "accept_new_best", "force_accept"]);
const IMPORT_WORKER = "skillopt-import";

export interface ImportedOptimization {
  id: number;
  skillName: string;
  stages: number;
  versions: number;
  notices: string[];
}

export interface ImportOptions {
  /** The skill the versions belong to (an existing skill gets new versions); default: the directory's name. */
  name?: string;
  /** What the directory is called in names and notes (default: its folder name; an uploaded zip's file name). */
  sourceName?: string;
  /** Stored datasets the optimisation ran on, when the caller knows them. */
  datasets?: { train: number; val: number; test: number | null };
}

export async function importSkillOptDir(db: Db, dir: string, options: ImportOptions = {}): Promise<ImportedOptimization> {
  const read = readSkillOptDir(dir);
  const source = options.sourceName ?? basename(resolve(dir));
  const skillName = (options.name ?? source).trim();
  if (!skillName) throw new Error("the skill needs a name (--name)");
  const notices = read.droppedSecretKeys.length > 0 ? [`config.json: left out credential keys ${read.droppedSecretKeys.join(", ")}`] : [];
  const undo = { optimizationId: null as number | null, createdVersionIds: [] as number[], createdSkillId: null as number | null };
  try {
    const id = await store(db, read, skillName, source, undo, options.datasets);
    return { id, skillName, stages: read.stages.length, versions: undo.createdVersionIds.length, notices };
  } catch (error) {
    await removeFailedImport(db, undo);
    throw error;
  }
}

async function store(
  db: Db, read: SkillOptDir, skillName: string, source: string, undo: { optimizationId: number | null; createdVersionIds: number[]; createdSkillId: number | null },
  datasets: ImportOptions["datasets"],
): Promise<number> {
  const extras = read.extras;
  const versions = new Map<string, number>();
  let optimizationId = 0;
  const version = async (content: string, origin?: { parent: string; stageKey: string }): Promise<number> => {
    const known = versions.get(content);
    if (known !== undefined) return known;
    const parentVersionId = origin ? await version(origin.parent) : undefined;
    const result = await addSkillVersion(db, {
      name: skillName, content, note: origin ? `imported optimization ${optimizationId} · ${origin.stageKey}` : `imported from ${source}`,
      origin: origin && parentVersionId !== undefined ? { parentVersionId, optimizationId, stepKey: origin.stageKey } : undefined,
    });
    if (result.created) undo.createdVersionIds.push(result.version.id);
    if (result.created && result.version.version === 1) undo.createdSkillId = result.version.skillId;
    versions.set(content, result.version.id);
    return result.version.id;
  };
  const initialVersionId = await version(read.initialSkill);
  const config = read.config ?? {};
  const settings = { ...sectionedSettings(config), ...(extras?.skillboard_settings ? { skillboard: extras.skillboard_settings } : {}), upstream_config: config };
  const record = await createOptimization(db, {
    name: extras && (typeof extras.name === "string" || extras.name === null) ? (extras.name as string | null) : `imported ${source}`,
    skillId: (await getSkillVersion(db, initialVersionId)).skillId,
    initialVersionId, trainDatasetId: datasets?.train ?? NO_DATASET, valDatasetId: datasets?.val ?? NO_DATASET, testDatasetId: datasets?.test ?? null,
    settingsJson: pyJsonDumps(settings), targetConfigJson: jsonFieldOf(extras, "target_config") ?? "{}", optimizerJson: jsonFieldOf(extras, "optimizer") ?? "{}",
    capsJson: "{}", source: "imported", leaseFor: IMPORT_WORKER,
  });
  optimizationId = record.id;
  undo.optimizationId = record.id;

  let current = read.initialSkill;
  let best = read.initialSkill;
  const running: Record<string, PyJson> = { global_step: 0, current_score: -1, best_score: -1, best_step: 0, current_origin: "initial_skill", best_origin: "initial_skill" };
  const lastByStep = new Map<number, ReadStage>();
  for (const stage of read.stages) if (["step", "slow_update", "meta_skill"].includes(stage.kind)) lastByStep.set(stage.globalStep, stage);
  let calls = 0;
  let lastState = "{}";
  for (const [index, stage] of read.stages.entries()) {
    const parent = current;
    const action = stage.action ?? "";
    let candidate: string | null = stage.candidate;
    if (stage.kind === "step") {
      if (ACCEPTED.has(action) && candidate !== null) current = candidate;
      if (candidate !== null && (action === "accept_new_best" || (action === "force_accept" && stage.record.best_step === stage.globalStep))) best = candidate;
    } else if (stage.kind === "slow_update") {
      if (action === "inject_placeholder") candidate = injectEmptySlowUpdateField(current);
      if (candidate !== null && (ACCEPTED.has(action) || action === "inject_placeholder")) current = candidate;
      if (candidate !== null && action === "accept_new_best") best = candidate;
    } else if (stage.kind === "final" && stage.record.promoted === true) {
      best = current;
    }
    // The saved files are the truth where the rules above cannot see (e.g. modes Skillboard does not run).
    const saved = read.skillFiles.get(stage.globalStep);
    if (lastByStep.get(stage.globalStep) === stage && saved !== undefined) current = saved;
    if (index === read.stages.length - 1 && read.bestSkill !== null) best = read.bestSkill;
    trackState(running, stage, action);

    const candidateVersionId = candidate !== null ? await version(candidate, { parent, stageKey: stage.key }) : null;
    const currentVersionId = await version(current, { parent, stageKey: stage.key });
    const bestVersionId = await version(best, { parent, stageKey: stage.key });
    const extra = stage.extras;
    lastState = extra && isPyDict(extra.state) ? pyJsonDumps(extra.state) : pyJsonDumps({ ...running });
    const editBudget = extra ? extra.edit_budget : stage.record.edit_budget;
    await saveOptimizationStep(db, optimizationId, {
      key: stage.key, kind: stage.kind,
      epoch: typeof extra?.epoch === "number" ? extra.epoch : stage.epoch,
      globalStep: typeof extra?.global_step === "number" ? extra.global_step : stage.globalStep,
      batchItemIds: Array.isArray(extra?.batch_item_ids) ? (extra.batch_item_ids as string[][]) : [],
      candidateVersionId, currentVersionId, bestVersionId, stateJson: lastState,
      editBudget: typeof editBudget === "number" ? editBudget : null,
      action: extra && (typeof extra.action === "string" || extra.action === null) ? (extra.action as string | null) : stage.action,
      gateJson: extra?.gate !== undefined && extra.gate !== null ? pyJsonDumps(extra.gate) : null,
      recordJson: pyJsonDumps(stage.record),
      edits: stage.edits,
    });
    for (const patch of read.calls ? [] : stage.patches) {
      await saveOptimizerCall(db, optimizationId, {
        key: patch.key, stepKey: stage.key, stage: "analyst", minibatch: patch.minibatch, system: "", user: "", reply: patch.text,
        parsedJson: patch.text, promptTokens: 0, completionTokens: 0, latencyMs: 0, attempts: 0,
      });
      calls++;
    }
  }
  for (const call of read.calls ?? []) {
    const { itemIdsJson, inputKeysJson, ...rest } = call;
    await saveOptimizerCall(db, optimizationId, { ...rest, itemIds: JSON.parse(itemIdsJson) as string[], inputKeys: JSON.parse(inputKeysJson) as string[] });
    calls++;
  }
  await updateOptimizationProgress(db, optimizationId, {
    currentVersionId: versions.get(current)!, bestVersionId: versions.get(best)!, stateJson: lastState, optimizerCalls: calls,
    targetCalls: numberIn(extras, "spend", "target_calls") ?? 0, optimizerTokens: numberIn(extras, "spend", "optimizer_tokens") ?? 0,
  });
  const recorded = typeof extras?.status === "string" ? extras.status : null;
  // What ran elsewhere and stopped before its end is "interrupted" here: it can be read, not resumed.
  const status = recorded && ["completed", "failed", "cancelled"].includes(recorded) ? recorded : read.summary ? "completed" : "interrupted";
  const stopReason = extras ? (typeof extras.stop_reason === "string" ? extras.stop_reason : null) : read.summary ? null : "imported from a SkillOpt directory without summary.json (the run had not finished)";
  const summaryJson = read.summary ? pyJsonDumps({ ...read.summary, config }) : null;
  const wall = read.summary?.total_wall_time_s;
  await finishOptimization(db, optimizationId, IMPORT_WORKER, {
    status: status as "completed", activeMs: typeof wall === "number" ? wall * 1000 : 0, stopReason, summaryJson,
  });
  return optimizationId;
}

/** The loop state after a stage, as the engine records it (stateSummary), from the records' own fields. */
function trackState(running: Record<string, PyJson>, stage: ReadStage, action: string): void {
  const pad2 = (n: number) => String(n).padStart(2, "0");
  running.global_step = stage.globalStep;
  if (stage.kind === "step" && ACCEPTED.has(action)) running.current_origin = `step_${String(stage.globalStep).padStart(4, "0")}`;
  if (stage.kind === "slow_update") {
    if (action === "inject_placeholder") running.current_origin = `slow_update_placeholder_epoch_${pad2(stage.epoch)}`;
    if (ACCEPTED.has(action)) running.current_origin = `slow_update_epoch_${pad2(stage.epoch)}`;
  }
  for (const key of ["current_score", "best_score", "best_step", "current_origin", "best_origin"] as const) {
    const value = (stage.record as Dict)[key];
    if (value !== undefined) running[key] = value;
  }
  if (stage.kind === "baseline" && stage.record.selection_hard !== undefined) running.current_score = running.best_score = stage.record.selection_hard;
}
