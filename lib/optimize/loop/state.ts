/** The training loop's working state, as trainer.py keeps it in local variables (and its out_root files). */
import type { ItemResult } from "../../runs/types";
import type { GateScoreSettings } from "../gate";
import type { StepBufferEntry } from "../prompts/step-buffer";
import { EditBudgetScheduler } from "../scheduler";
import type { OptimizeSettings } from "../settings";
import type { LoopIO } from "./io";

/** A val score in the selection cache (`sel_cache`), with the per-item outcomes Skillboard's statistics need. */
export interface ValScore {
  hard: number;
  soft: number;
  /** Per val item hard scores, in val order; null for upstream's pseudo-entry of a force-accepted slow update. */
  perItem: number[] | null;
  runId: number | null;
}

/** One entry of upstream's history.json, as far as later stages read it. */
export interface HistoryEntry {
  step: number;
  epoch: number;
  action: string;
  record: Record<string, unknown>;
}

export interface LoopContext {
  io: LoopIO;
  settings: OptimizeSettings;
  gateScore: GateScoreSettings;
  initialSkill: string;
  split: { train: string[]; val: string[]; test: string[] };
  /** Val items the gate scores on (`sel_env_num`: the first N, 0 = all). */
  valIds: string[];
  testIds: string[];
  stepsPerEpoch: number;
  totalSteps: number;
}

export interface LoopState {
  currentSkill: string;
  currentScore: number;
  bestSkill: string;
  bestScore: number;
  bestStep: number;
  currentOrigin: string;
  bestOrigin: string;
  globalStep: number;
  history: HistoryEntry[];
  /** skills/skill_vNNNN.md as upstream writes (and overwrites) them. */
  savedSkills: Map<number, string>;
  selCache: Map<string, ValScore>;
  /** Skillboard's own val runs of skills whose score was inherited (`measure_inherited`), by skill hash; never read by the gate's scores. */
  pairedCache: Map<string, ValScore & { key: string }>;
  stepBuffer: StepBufferEntry[];
  scheduler: EditBudgetScheduler;
  /** meta_skill/epoch_NN/meta_skill_result.json's content, by epoch. */
  metaSkills: Map<number, string>;
}

export function newLoopState(ctx: Pick<LoopContext, "initialSkill" | "settings" | "totalSteps">): LoopState {
  const { optimizer } = ctx.settings;
  return {
    currentSkill: ctx.initialSkill,
    currentScore: -1,
    bestSkill: ctx.initialSkill,
    bestScore: -1,
    bestStep: 0,
    currentOrigin: "initial_skill",
    bestOrigin: "initial_skill",
    globalStep: 0,
    history: [],
    savedSkills: new Map([[0, ctx.initialSkill]]),
    selCache: new Map(),
    pairedCache: new Map(),
    stepBuffer: [],
    scheduler: new EditBudgetScheduler({
      mode: optimizer.lr_scheduler,
      maxLr: optimizer.learning_rate,
      minLr: optimizer.min_learning_rate,
      totalSteps: ctx.totalSteps,
    }),
    metaSkills: new Map(),
  };
}

/** A failure as upstream counts one: `not r.get("hard") or float(r["hard"]) < 1e-9`. */
export function isFailure(row: Pick<ItemResult, "hard">): boolean {
  return !row.hard || row.hard < 1e-9;
}

/** The loop state as the dashboard and `optimize status` show it (and resume never needs). */
export function stateSummary(state: LoopState): Record<string, unknown> {
  return {
    global_step: state.globalStep,
    current_score: state.currentScore,
    best_score: state.bestScore,
    best_step: state.bestStep,
    current_origin: state.currentOrigin,
    best_origin: state.bestOrigin,
  };
}
