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

export interface GateDecision {
  result: GateResult;
  candidateGateScore: number;
  /** Paired statistics against the current skill on the same val items (null when its per-item results are unknown). */
  statistics: GateStatistics | null;
  /** Which rule decided: the seed's strict rule, McNemar (a labelled deviation), or none (use_gate: false). */
  rule: "strict" | "mcnemar" | "none";
  significant?: boolean;
}

export function decideGate(ctx: LoopContext, state: LoopState, candidateSkill: string, candidate: ValScore, globalStep: number): GateDecision {
  const current = state.selCache.get(skillHash(state.currentSkill));
  const statistics =
    current?.perItem && candidate.perItem && current.perItem.length === candidate.perItem.length
      ? gateStatistics(current.perItem, candidate.perItem)
      : null;
  const candidateGateScore = selectGateScore(candidate.hard, candidate.soft, ctx.gateScore, candidateSkill);
  const gateState = {
    currentSkill: state.currentSkill,
    currentScore: state.currentScore,
    bestSkill: state.bestSkill,
    bestScore: state.bestScore,
    bestStep: state.bestStep,
  };
  const useGate = ctx.settings.evaluation.use_gate && ctx.settings.skillboard.gate !== "none";
  if (!useGate) return { result: forceAcceptGate(candidateSkill, candidateGateScore, gateState, globalStep), candidateGateScore, statistics, rule: "none" };
  if (ctx.settings.skillboard.gate === "mcnemar") {
    // Without paired outcomes (the current skill's score came from a force-accepted slow update) no item changed.
    const paired = statistics ?? { broken: 0, fixed: 0, pValue: 1 };
    const decision = evaluateMcnemarGate(candidateSkill, candidate, gateState, globalStep, paired, ctx.settings.skillboard.alpha, ctx.gateScore);
    return { result: decision, candidateGateScore, statistics, rule: "mcnemar", significant: decision.significant };
  }
  return { result: evaluateGate(candidateSkill, candidate, gateState, globalStep, ctx.gateScore), candidateGateScore, statistics, rule: "strict" };
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
  };
}
