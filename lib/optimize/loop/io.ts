/**
 * What the training loop needs from the outside world. The loop (train.ts and its stages) is a deterministic function of
 * its settings, its datasets and the replies it gets; this interface is where those come from. The database-backed
 * implementation (lib/optimize/engine) stores every rollout as a run and every optimizer call as a row, and answers a
 * repeated request from what it stored: that is how a killed optimisation resumes without calling a model twice.
 */
import type { PyJson } from "../../export/python-json";
import type { ItemResult } from "../../runs/types";
import type { OptimizerRequest } from "../prompts/request";

export type SplitName = "train" | "val" | "test";

export interface RolloutRequest {
  /** Unique within the optimisation: "baseline/val", "step:0003/rollout/0", "test/best", … (keys.ts). */
  key: string;
  skill: string;
  /** The skill the candidate was made from, and the stage that made it: recorded on the new skill version. */
  origin?: { parentSkill: string; stageKey: string };
  split: SplitName;
  /** Exactly these items of the split, results in this order; all of the split's items when absent. */
  itemIds?: readonly string[];
}

export interface RolloutOutcome {
  runId: number;
  /** The system prompt the target was given (the skill inside the rollout template). */
  systemPrompt: string;
  /** One row per requested item, in request order (split order when all items). */
  rows: ItemResult[];
}

export interface OptimizerCallRequest {
  key: string;
  stageKey: string;
  request: OptimizerRequest;
  minibatch?: number;
  mergeLevel?: number;
  itemIds?: readonly string[];
  /** The calls whose results it takes in (a merge's patches, the ranking's merged patch): the merge tree, for the record. */
  inputKeys?: readonly string[];
}

export interface StageEdit {
  ordinal: number;
  op: string;
  target: string;
  content: string;
  supportCount: number | null;
  sourceType: string | null;
  applyStatus: string;
  applyDetail: string | null;
  /** Analyst call keys whose patch carried this edit (by content), with their item ids. */
  proposedBy: { call: string; itemIds: string[] }[];
}

/** A finished stage, as stored (and as the SkillOpt export writes it). */
export interface StageRecord {
  key: string;
  kind: "baseline" | "step" | "slow_update" | "meta_skill" | "final";
  epoch: number;
  globalStep: number;
  batchItemIds?: string[][];
  candidateSkill?: string;
  parentSkill?: string;
  editBudget?: number | null;
  action?: string;
  gate?: PyJson | Record<string, unknown>;
  /** SkillOpt's step_record.json keys (or slow_result.json / meta_skill_result.json for the epoch-end stages). */
  record: Record<string, unknown>;
  edits?: StageEdit[];
  /** The skill the loop goes on with after this stage, and the best so far. */
  currentSkill: string;
  bestSkill: string;
  state: Record<string, unknown>;
}

/** A person's decision on a candidate that passed the gate (manual approval). */
export type ApprovalDecision =
  | { decision: "none" }
  | { decision: "pending" }
  | { decision: "approved" }
  | { decision: "rejected" }
  | { decision: "edited"; skill: string };

export interface LoopIO {
  rollout(request: RolloutRequest): Promise<RolloutOutcome>;
  /** Registers a skill text as a version of the skill being optimised (with where it came from, when new). */
  skillVersion(skill: string, origin?: { parentSkill: string; stageKey: string }): Promise<number>;
  /** The reply text, or undefined when every attempt failed (upstream's `except Exception` path). */
  callOptimizer(call: OptimizerCallRequest): Promise<string | undefined>;
  saveStage(stage: StageRecord): Promise<void>;
  /** Manual approval: what a person said about this stage's candidate (none: not asked yet). */
  approval(stageKey: string): Promise<ApprovalDecision>;
  /** Asks for a person's decision; the loop then stops with LoopPaused. */
  requestApproval(stage: StageRecord): Promise<void>;
  /** At each step boundary: throws LoopStopped when a cap is reached or a cancel was asked for. */
  checkpoint(where: string): Promise<void>;
  log(line: string): void;
}

/** The loop stopped cleanly at a boundary: a budget cap (`reason` names it) or a cancel. */
export class LoopStopped extends Error {
  override name = "LoopStopped";
  constructor(readonly kind: "cap" | "cancelled", readonly reason: string) {
    super(reason);
  }
}

/** A candidate waits for a person (manual approval). */
export class LoopPaused extends Error {
  override name = "LoopPaused";
  constructor(readonly stageKey: string) {
    super(`waiting for approval of ${stageKey}`);
  }
}
