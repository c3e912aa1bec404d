/**
 * What the optimisation pages show, derived from the stored rows (lib/db/optimization-views.ts): planned and done
 * steps, accepted steps, the val scores over the steps, the gate of each step, test scores and spend. Pure.
 */
import type { OptimizationOverview, StageBrief } from "../db/optimization-views";
import { stepsPerEpoch } from "./batches";

const ACCEPTED = new Set(["accept", "accept_new_best", "force_accept"]);

export const isAcceptedAction = (action: string | null | undefined) => action !== null && action !== undefined && ACCEPTED.has(action);

function parse<T>(json: string | null | undefined, fallback: T): T {
  if (!json) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

export interface StageGate {
  rule?: string;
  action?: string;
  score_before?: number;
  candidate_score?: number;
  selection_hard?: number;
  significant?: boolean;
  approval?: string;
  statistics?: { fixed: number; broken: number; p_value: number; difference: { mean: number; low: number; high: number } } | null;
  /** Why there are no statistics (the current skill inherited its score and was not rolled out on val). */
  statistics_note?: string;
  /** The current skill's own val score, measured for the statistics when it had inherited its score. */
  current_val?: { hard: number; soft: number; key: string };
  proposed?: StageGate;
}

export interface StageRecordFields {
  rollout_hard?: number;
  rollout_n?: number;
  current_score?: number;
  best_score?: number;
  selection_hard?: number;
  edit_budget?: number;
  n_edits_merged?: number;
  n_edits_ranked?: number;
  n_patches?: number;
  wall_time_s?: number;
  [key: string]: unknown;
}

export const stageGate = (stage: Pick<StageBrief, "gateJson">): StageGate | null => parse<StageGate | null>(stage.gateJson, null);
export const stageRecord = (stage: Pick<StageBrief, "recordJson">): StageRecordFields => parse<StageRecordFields>(stage.recordJson, {});

interface Settings {
  train?: { num_epochs?: number; batch_size?: number; accumulation?: number };
  skillboard?: { gate?: string; alpha?: number; approval?: string };
  optimizer?: { use_slow_update?: boolean; slow_update_gate_with_selection?: boolean; use_meta_skill?: boolean };
}

export interface ModelNames {
  target: string;
  optimizer: string;
  /** What the models were, when a recording says (the demo: scripted models, not a language model). */
  note: string | null;
}

function modelNote(...jsons: string[]): string | null {
  for (const json of jsons) {
    const config = parse<{ model?: { note?: unknown }; note?: unknown }>(json, {});
    const note = config.model && typeof config.model === "object" ? config.model.note : config.note;
    if (typeof note === "string" && note !== "") return note;
  }
  return null;
}

function modelName(json: string, fallback: string): string {
  const config = parse<{ model?: { backend?: string; model?: string }; backend?: string }>(json, {});
  const selection = config.model && typeof config.model === "object" ? config.model : (config as { backend?: string; model?: string });
  const name = selection.model ?? fallback;
  return selection.backend === "azure" ? `${name} (Azure)` : name;
}

export interface CapsView {
  maxTargetCalls: number | null;
  maxOptimizerTokens: number | null;
  maxWallS: number | null;
}

/** One point of the val chart: a step's scores, its candidate and the gate's interval. */
export interface ValPoint {
  step: number;
  key: string;
  current: number | null;
  best: number | null;
  candidate: number | null;
  accepted: boolean | null;
  /** The candidate's score ± the paired bootstrap interval of the difference. */
  low: number | null;
  high: number | null;
  trainBatch: number | null;
}

export interface OptimizationSummaryView {
  planned: number;
  done: number;
  accepted: number;
  initialVal: number | null;
  bestVal: number | null;
  currentVal: number | null;
  test: { initial: number | null; best: number | null; final: number | null } | null;
  models: ModelNames;
  settings: Settings;
  caps: CapsView;
  points: ValPoint[];
  /** Seconds: the time spent executing, plus the current execution's so far. */
  durationS: number | null;
  /** The stage the loop is at (the next step, or the epoch boundary). */
  epoch: number;
  lastKey: string | null;
}

const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null);

export function summarizeOptimization(row: OptimizationOverview, now: Date = new Date()): OptimizationSummaryView {
  const settings = parse<Settings>(row.settingsJson, {});
  const epochs = settings.train?.num_epochs ?? 0;
  const planned = epochs * stepsPerEpoch(row.train.itemCount, settings.train?.batch_size ?? 1, settings.train?.accumulation ?? 1);
  const steps = row.stages.filter((stage) => stage.kind === "step");
  const baseline = row.stages.find((stage) => stage.kind === "baseline");
  const state = parse<{ best_score?: number; current_score?: number }>(row.stateJson, {});
  const summary = parse<Record<string, number | null> | null>(row.summaryJson, null);
  const caps = parse<Partial<CapsView>>(row.capsJson, {});
  const initialVal = baseline ? num(stageRecord(baseline).current_score) : null;
  const points: ValPoint[] = [];
  if (baseline && initialVal !== null) points.push({ step: 0, key: baseline.key, current: initialVal, best: initialVal, candidate: null, accepted: null, low: null, high: null, trainBatch: null });
  for (const stage of steps) {
    const record = stageRecord(stage);
    const gate = stageGate(stage);
    const difference = gate?.statistics?.difference;
    const before = num(gate?.score_before);
    points.push({
      step: stage.globalStep,
      key: stage.key,
      current: num(record.current_score),
      best: num(record.best_score),
      candidate: num(gate?.candidate_score),
      accepted: gate ? isAcceptedAction(stage.action) : null,
      low: difference && before !== null ? before + difference.low : null,
      high: difference && before !== null ? before + difference.high : null,
      trainBatch: num(record.rollout_hard),
    });
  }
  // While it runs: the time since it started (a resumed one's earlier executions included in that span); after: the time spent executing.
  const durationS = row.status === "running" && row.startedAt ? (now.getTime() - row.startedAt.getTime()) / 1000 : row.activeMs > 0 ? row.activeMs / 1000 : null;
  const last = row.stages.at(-1);
  return {
    planned,
    done: steps.length,
    accepted: steps.filter((stage) => isAcceptedAction(stage.action)).length,
    initialVal,
    bestVal: num(state.best_score),
    currentVal: num(state.current_score),
    test: summary ? { initial: num(summary.baseline_test_hard), best: num(summary.test_hard), final: num(summary.final_test_hard) } : null,
    models: { target: modelName(row.targetConfigJson, "target"), optimizer: modelName(row.optimizerJson, "optimizer"), note: modelNote(row.targetConfigJson, row.optimizerJson) },
    settings,
    caps: { maxTargetCalls: caps.maxTargetCalls ?? null, maxOptimizerTokens: caps.maxOptimizerTokens ?? null, maxWallS: caps.maxWallS ?? null },
    points,
    durationS,
    epoch: last?.epoch ?? 0,
    lastKey: last?.key ?? null,
  };
}
