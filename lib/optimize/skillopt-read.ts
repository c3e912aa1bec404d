/**
 * Reads a SkillOpt output directory (made by skillopt/engine/trainer.py, or by Skillboard's export) into memory,
 * checking everything before anything is stored: a bad file is an error naming the file and the JSON field.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isPyDict, PyFloat, type PyJson } from "../export/python-json";
import { analystCallKey, metaSkillKey, slowUpdateKey, stepKey } from "./loop/keys";
import { pyJsonLoads } from "./py-json";
import { isSecretConfigKey } from "./skillopt-config";
import { callsFromJson, editsFromJson, ExtrasFieldError, SKILLBOARD_FILE, SKILLBOARD_FORMAT, type ExportCall, type ExportEdit } from "./skillopt-extras";

type Dict = { readonly [key: string]: PyJson };

export class SkillOptImportError extends Error {
  constructor(readonly file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = "SkillOptImportError";
  }
}

export interface ReadStage {
  key: string;
  kind: "baseline" | "step" | "slow_update" | "meta_skill" | "final";
  epoch: number;
  globalStep: number;
  action: string | null;
  record: Dict;
  /** The stage's candidate_skill.md, when upstream wrote one. */
  candidate: string | null;
  /** Saved analyst patches: the call key they answer and the file's text. */
  patches: { key: string; minibatch: number; text: string }[];
  /** skillboard.json's fields for this stage, when the directory has one. */
  extras: Dict | null;
  /** The stage's ranked edits (skillboard.json; upstream's layout does not keep them whole). */
  edits: ExportEdit[];
}

export interface SkillOptDir {
  /** config.json without credential keys (null when absent). */
  config: Dict | null;
  droppedSecretKeys: string[];
  summary: Dict | null;
  initialSkill: string;
  /** skills/skill_vNNNN.md by global step. */
  skillFiles: Map<number, string>;
  bestSkill: string | null;
  stages: ReadStage[];
  extras: Dict | null;
  /** Every optimizer call with its prompt and reply (skillboard.json), or null: then the saved patches are the calls. */
  calls: ExportCall[] | null;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");
const isInt = (value: PyJson | undefined): value is number => typeof value === "number" && Number.isInteger(value);

function readText(dir: string, file: string): string | null {
  const path = join(dir, file);
  if (!existsSync(path)) return null;
  if (!statSync(path).isFile()) throw new SkillOptImportError(file, "is not a file");
  return readFileSync(path, "utf8");
}

function readJson(dir: string, file: string): PyJson | undefined {
  const text = readText(dir, file);
  if (text === null) return undefined;
  try {
    return pyJsonLoads(text);
  } catch (error) {
    throw new SkillOptImportError(file, `not valid JSON (${(error as Error).message})`);
  }
}

function readDict(dir: string, file: string): Dict | null {
  const value = readJson(dir, file);
  if (value === undefined) return null;
  if (!isPyDict(value)) throw new SkillOptImportError(file, "expected a JSON object at the top level");
  return value;
}

/** Checks one JSON field; the error names the file and the field's path. */
function field(file: string, path: string, value: PyJson | undefined, check: (v: PyJson | undefined) => boolean, expected: string): void {
  if (!check(value)) throw new SkillOptImportError(file, `${path}: expected ${expected}, got ${value === undefined ? "nothing" : JSON.stringify(value instanceof PyFloat ? value.value : value)}`);
}

export function readSkillOptDir(dir: string): SkillOptDir {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SkillOptImportError(dir, "not a directory");
  const history = readJson(dir, "history.json");
  if (history === undefined) throw new SkillOptImportError("history.json", "missing: not a SkillOpt output directory");
  if (!Array.isArray(history)) throw new SkillOptImportError("history.json", "expected a JSON list of step records");
  const initialSkill = readText(dir, "skills/skill_v0000.md");
  if (initialSkill === null) throw new SkillOptImportError("skills/skill_v0000.md", "missing: the initial skill is needed");

  const rawConfig = readDict(dir, "config.json");
  const droppedSecretKeys = rawConfig ? Object.keys(rawConfig).filter(isSecretConfigKey) : [];
  const config = rawConfig ? Object.fromEntries(Object.entries(rawConfig).filter(([key]) => !isSecretConfigKey(key))) : null;
  const summary = readDict(dir, "summary.json");
  const extras = readExtras(dir);

  const skillFiles = new Map<number, string>();
  for (const name of existsSync(join(dir, "skills")) ? readdirSync(join(dir, "skills")) : []) {
    const match = /^skill_v(\d{4,})\.md$/.exec(name);
    if (match) skillFiles.set(Number(match[1]), readText(dir, `skills/${name}`)!);
  }

  const steps: ReadStage[] = (history as PyJson[]).map((entry, index) => {
    const where = `[${index}]`;
    field("history.json", where, entry, isPyDict, "a step record (object)");
    const record = entry as Dict;
    field("history.json", `${where}.step`, record.step, isInt, "an integer");
    field("history.json", `${where}.epoch`, record.epoch, isInt, "an integer");
    field("history.json", `${where}.action`, record.action, (v) => typeof v === "string", "a string");
    const globalStep = record.step as number;
    if (index > 0 && globalStep <= ((history as Dict[])[index - 1]!.step as number)) {
      throw new SkillOptImportError("history.json", `${where}.step: ${globalStep} does not follow step ${String((history as Dict[])[index - 1]!.step)}`);
    }
    const stepDir = `steps/step_${pad(globalStep, 4)}`;
    return {
      key: stepKey(globalStep), kind: "step", epoch: record.epoch as number, globalStep, action: record.action as string, record,
      candidate: readText(dir, `${stepDir}/candidate_skill.md`), patches: readPatches(dir, stepDir, globalStep), extras: null, edits: [],
    };
  });

  const stages: ReadStage[] = [];
  const epochs = [...new Set(steps.map((step) => step.epoch))].sort((a, b) => a - b);
  for (const epoch of epochs) {
    const inEpoch = steps.filter((step) => step.epoch === epoch);
    stages.push(...inEpoch);
    const globalStep = inEpoch[inEpoch.length - 1]!.globalStep;
    for (const [kind, file, key] of [
      ["slow_update", `slow_update/epoch_${pad(epoch, 2)}/slow_result.json`, slowUpdateKey(epoch)],
      ["meta_skill", `meta_skill/epoch_${pad(epoch, 2)}/meta_skill_result.json`, metaSkillKey(epoch)],
    ] as const) {
      const record = readDict(dir, file);
      if (!record) continue;
      field(file, "action", record.action, (v) => typeof v === "string", "a string");
      const candidate = kind === "slow_update" ? readText(dir, `slow_update/epoch_${pad(epoch, 2)}/candidate_skill.md`) : null;
      stages.push({ key, kind, epoch, globalStep, action: record.action as string, record, candidate, patches: [], extras: null, edits: [] });
    }
  }
  const byKey = new Map(((extras?.stages ?? []) as Dict[]).map((stage) => [stage.key as string, stage]));
  const withEdges = [...edgeStage("baseline", byKey, summary, 0, 0), ...stages, ...edgeStage("final", byKey, summary, epochs.at(-1) ?? 0, steps.at(-1)?.globalStep ?? 0)];
  const stageIndex = new Map(((extras?.stages ?? []) as Dict[]).map((stage, index) => [stage.key as string, index]));
  const calls = extrasField(() => callsFromJson("calls", extras?.calls));
  for (const stage of withEdges) {
    stage.extras = byKey.get(stage.key) ?? null;
    stage.edits = extrasField(() => editsFromJson(`stages[${stageIndex.get(stage.key) ?? -1}].edits`, stage.extras?.edits));
  }
  return { config, droppedSecretKeys, summary, initialSkill, skillFiles, bestSkill: readText(dir, "best_skill.md"), stages: withEdges, extras, calls };
}

/** skillboard.json's edits and calls, their errors naming the file. */
function extrasField<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ExtrasFieldError) throw new SkillOptImportError(SKILLBOARD_FILE, error.message);
    throw error;
  }
}

/** steps/step_NNNN/[batch_A/]patches/minibatch_{fail,succ}_NNN.json, each checked to be a JSON object. */
function readPatches(dir: string, stepDir: string, globalStep: number): ReadStage["patches"] {
  const patches: ReadStage["patches"] = [];
  const folders: [string, number][] = [[`${stepDir}/patches`, 0]];
  if (existsSync(join(dir, stepDir))) {
    for (const name of readdirSync(join(dir, stepDir))) {
      const match = /^batch_(\d+)$/.exec(name);
      if (match) folders.push([`${stepDir}/${name}/patches`, Number(match[1])]);
    }
  }
  for (const [folder, batch] of folders) {
    if (!existsSync(join(dir, folder))) continue;
    for (const name of readdirSync(join(dir, folder)).sort()) {
      const match = /^minibatch_(fail|succ)_(\d{3})\.json$/.exec(name);
      if (!match) continue;
      const file = `${folder}/${name}`;
      readDict(dir, file);
      const minibatch = Number(match[2]);
      patches.push({ key: analystCallKey(stepKey(globalStep), batch, match[1] === "fail" ? "failure" : "success", minibatch), minibatch, text: readText(dir, file)! });
    }
  }
  return patches;
}

/** The baseline and final stages: SkillOpt has no file for them; skillboard.json or summary.json says what they were. */
function edgeStage(kind: "baseline" | "final", byKey: Map<string, Dict>, summary: Dict | null, epoch: number, globalStep: number): ReadStage[] {
  const extra = byKey.get(kind);
  let record: Dict | null = extra && isPyDict(extra.record) ? extra.record : null;
  if (!record && summary) {
    record = kind === "baseline"
      ? { selection_hard: summary.baseline_selection_hard ?? null }
      : {
          final_selection_hard: summary.final_selection_hard ?? null, final_selection_soft: summary.final_selection_soft ?? null,
          baseline_test_hard: summary.baseline_test_hard ?? null, baseline_test_soft: summary.baseline_test_soft ?? null,
          test_hard: summary.test_hard ?? null, test_soft: summary.test_soft ?? null, final_test_hard: summary.final_test_hard ?? null, final_test_soft: summary.final_test_soft ?? null,
        };
  }
  if (!record) return [];
  return [{ key: kind, kind, epoch, globalStep, action: kind, record, candidate: null, patches: [], extras: null, edits: [] }];
}

function readExtras(dir: string): Dict | null {
  const extras = readDict(dir, SKILLBOARD_FILE);
  if (!extras) return null;
  field(SKILLBOARD_FILE, "format", extras.format, (v) => v === SKILLBOARD_FORMAT, JSON.stringify(SKILLBOARD_FORMAT));
  field(SKILLBOARD_FILE, "stages", extras.stages, Array.isArray, "a list");
  (extras.stages as PyJson[]).forEach((stage, index) => {
    field(SKILLBOARD_FILE, `stages[${index}]`, stage, isPyDict, "an object");
    field(SKILLBOARD_FILE, `stages[${index}].key`, (stage as Dict).key, (v) => typeof v === "string", "a string");
    field(SKILLBOARD_FILE, `stages[${index}].state`, (stage as Dict).state, isPyDict, "an object");
  });
  return extras;
}
