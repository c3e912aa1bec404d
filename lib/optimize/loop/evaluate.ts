/**
 * Val evaluation through the selection cache, and the gate's decision with Skillboard's statistics beside it
 * (trainer.py's ⑥ EVALUATE; evaluation/gate.py).
 */
import { computeScore, evaluateGate, evaluateMcnemarGate, forceAcceptGate, gateStatistics, type GateResult, type GateStatistics, selectGateScore, skillHash } from "../gate";
import type { LoopContext, LoopState, ValScore } from "./state";

export async function valScore(
  ctx: LoopContext,
  state: LoopState,
  skill: string,
  key: string,
  origin?: { parentSkill: string; stageKey: string },
): Promise<ValScore & { cached: boolean }> {
  const hash = skillHash(skill);
  const cached = state.selCache.get(hash);
  if (cached) return { ...cached, cached: true };
  const outcome = await ctx.io.rollout({ key, skill, split: "val", itemIds: ctx.valIds, origin });
  const { hard, soft } = computeScore(outcome.rows);
  const score: ValScore = { hard, soft, perItem: outcome.rows.map((row) => row.hard), runId: outcome.runId };
  state.selCache.set(hash, score);
  return { ...score, cached: false };
}

/** What the paired statistics compare the candidate with: the current skill's per-item val results, or why there are none. */
export interface CurrentPairing {
  perItem: number[] | null;
  /** The current skill's own val run, rolled out for the statistics only because its score was inherited (the gate still compares with the inherited score). */
  measured?: { hard: number; soft: number; key: string };
  /** Why there are no per-item results, as the step page shows it. */
  missing?: string;
}

/** Whether a skill whose score was inherited is rolled out on val for the statistics (the McNemar gate cannot decide without). */
export function measuresInherited(ctx: LoopContext): boolean {
  return ctx.settings.skillboard.measure_inherited || ctx.settings.skillboard.gate === "mcnemar";
}

function inheritedReason(state: LoopState): string {
  if (state.currentOrigin.startsWith("slow_update_placeholder")) return "not measured: the slow update's placeholder inherited the score (the seed does not validate it again)";
  if (state.currentOrigin.startsWith("slow_update_epoch")) return "not measured: the force-accepted slow update inherited the score (the seed does not validate it again)";
  return "not measured: the current skill has no val results of its own";
}

/**
 * The current skill's per-item val results for `stageKey`'s gate. A skill that inherited its score (upstream's
 * placeholder and force-accepted slow updates never run on val) has none: with `measure_inherited` (or the McNemar gate)
 * it is rolled out once, apart from the selection cache so the seed's rollouts and scores stay as they are.
 */
export async function currentPairing(ctx: LoopContext, state: LoopState, stageKey: string): Promise<CurrentPairing> {
  const hash = skillHash(state.currentSkill);
  const cached = state.selCache.get(hash);
  if (cached?.perItem) return { perItem: cached.perItem };
  if (!measuresInherited(ctx)) return { perItem: null, missing: inheritedReason(state) };
  let measured = state.pairedCache.get(hash);
  if (!measured) {
    const key = `${stageKey}/selection/current`;
    const outcome = await ctx.io.rollout({ key, skill: state.currentSkill, split: "val", itemIds: ctx.valIds });
    measured = { ...computeScore(outcome.rows), perItem: outcome.rows.map((row) => row.hard), runId: outcome.runId, key };
    state.pairedCache.set(hash, measured);
  }
  return { perItem: measured.perItem, measured: { hard: measured.hard, soft: measured.soft, key: measured.key } };
}

export interface GateDecision {
  result: GateResult;
  candidateGateScore: number;
  /** Paired statistics against the current skill on the same val items (null when its per-item results are unknown). */
  statistics: GateStatistics | null;
  /** Which rule decided: the seed's strict rule, McNemar (a labelled deviation), or none (use_gate: false). */
  rule: "strict" | "mcnemar" | "none";
  significant?: boolean;
  pairing: CurrentPairing;
}

export function decideGate(ctx: LoopContext, state: LoopState, candidateSkill: string, candidate: ValScore, globalStep: number, pairing: CurrentPairing): GateDecision {
  const current = pairing.perItem;
  const statistics = current && candidate.perItem && current.length === candidate.perItem.length ? gateStatistics(current, candidate.perItem) : null;
  const candidateGateScore = selectGateScore(candidate.hard, candidate.soft, ctx.gateScore, candidateSkill);
  const gateState = {
    currentSkill: state.currentSkill,
    currentScore: state.currentScore,
    bestSkill: state.bestSkill,
    bestScore: state.bestScore,
    bestStep: state.bestStep,
  };
  const useGate = ctx.settings.evaluation.use_gate && ctx.settings.skillboard.gate !== "none";
  if (!useGate) return { result: forceAcceptGate(candidateSkill, candidateGateScore, gateState, globalStep), candidateGateScore, statistics, rule: "none", pairing };
  if (ctx.settings.skillboard.gate === "mcnemar") {
    // Without paired outcomes (a val run of the current skill failed to pair) no item counts as changed.
    const paired = statistics ?? { broken: 0, fixed: 0, pValue: 1 };
    const decision = evaluateMcnemarGate(candidateSkill, candidate, gateState, globalStep, paired, ctx.settings.skillboard.alpha, ctx.gateScore);
    return { result: decision, candidateGateScore, statistics, rule: "mcnemar", significant: decision.significant, pairing };
  }
  return { result: evaluateGate(candidateSkill, candidate, gateState, globalStep, ctx.gateScore), candidateGateScore, statistics, rule: "strict", pairing };
}

/** The decision and its statistics as stored on the stage (and shown by `optimize status`). */
export function gateRecord(decision: GateDecision, candidate: ValScore, scoreBefore: number): Record<string, unknown> {
  const { statistics } = decision;
  return {
    rule: decision.rule,
    action: decision.result.action,
    score_before: scoreBefore,
    candidate_score: decision.candidateGateScore,
    selection_hard: candidate.hard,
    selection_soft: candidate.soft,
    ...(decision.significant !== undefined ? { significant: decision.significant } : {}),
    statistics: statistics
      ? {
          fixed: statistics.fixed,
          broken: statistics.broken,
          p_value: statistics.pValue,
          difference: statistics.difference,
        }
      : null,
    ...(statistics === null && decision.pairing.missing ? { statistics_note: decision.pairing.missing } : {}),
    ...(decision.pairing.measured ? { current_val: { ...decision.pairing.measured, note: "the current skill inherited its score; this val run of it is for the statistics only" } } : {}),
  };
}
