/**
 * Accepting or rejecting a candidate skill on the validation split, ported from skillopt/evaluation/gate.py
 * (`compute_semantic_density`, `select_gate_score`, `evaluate_gate`) and the trainer's force-accept branch
 * (skillopt/engine/trainer.py, `evaluation.use_gate: false`); plus Skillboard's noise-aware gate, a
 * deviation from the seed.
 *
 * Seed rule: the candidate is accepted only when its gate score is STRICTLY greater than the current skill's
 * (a tie is a rejection), and becomes the new best when it is also strictly greater than the best score. The
 * score is `hard` by default (`soft`, or `(1 - w)·hard + w·soft` for `mixed`), optionally plus
 * `weight · density` of "leading words" (MUST, ALWAYS, …) in the candidate.
 */
import { mcnemarExactOneSidedPValue, pairedBootstrapInterval, pairedOutcome, type BootstrapInterval } from "@/lib/stats";
import { createHash } from "node:crypto";
import { pyStrip } from "@/lib/text/python";

export const GATE_METRICS = ["hard", "soft", "mixed"] as const;
export type GateMetric = (typeof GATE_METRICS)[number];
export type GateAction = "accept_new_best" | "accept" | "reject" | "force_accept";

export const DEFAULT_LEADING_WORDS: readonly string[] = [
  "MUST", "ALWAYS", "NEVER", "ONLY", "CRITICAL", "IMPORTANT", "RESOLVE", "PREFER", "ENSURE", "STRICT", "VERIFY",
];

export interface GateScoreSettings {
  metric: GateMetric;
  /** Weight of `soft` for "mixed", clamped to [0, 1] as upstream does. */
  mixedWeight: number;
  useSemanticDensity: boolean;
  semanticDensityWeight: number;
  /** Undefined: DEFAULT_LEADING_WORDS. */
  leadingWords?: readonly string[];
}

export const SEED_GATE_SCORE: GateScoreSettings = {
  metric: "hard",
  mixedWeight: 0.5,
  useSemanticDensity: false,
  semanticDensityWeight: 0.05,
};

export interface GateState {
  currentSkill: string;
  currentScore: number;
  bestSkill: string;
  bestScore: number;
  bestStep: number;
}

export interface GateResult extends GateState {
  action: GateAction;
}

const REGION_MARKERS: readonly (readonly [string, string])[] = [
  ["<!-- SLOW_UPDATE_START -->", "<!-- SLOW_UPDATE_END -->"],
  ["<!-- APPENDIX_START -->", "<!-- APPENDIX_END -->"],
];

/**
 * `compute_semantic_density`: the share of leading words among the `[a-z0-9]+` words of the lowercased skill,
 * protected regions cut out first (an unclosed region loses only its start marker, as upstream does).
 */
export function computeSemanticDensity(skillContent: string, leadingWords: readonly string[] = DEFAULT_LEADING_WORDS): number {
  if (!skillContent || !pyStrip(skillContent)) return 0;
  let skill = skillContent;
  for (const [start, end] of REGION_MARKERS) {
    for (;;) {
      const startIndex = skill.indexOf(start);
      if (startIndex === -1) break;
      const endIndex = skill.indexOf(end, startIndex);
      if (endIndex === -1) {
        skill = skill.slice(0, startIndex) + skill.slice(startIndex + start.length);
        break;
      }
      skill = skill.slice(0, startIndex) + skill.slice(endIndex + end.length);
    }
  }
  const words = skill.toLowerCase().match(/[a-zA-Z0-9]+/g) ?? [];
  if (words.length === 0) return 0;
  const leading = new Set(leadingWords.map((word) => word.toLowerCase()));
  return words.filter((word) => leading.has(word)).length / words.length;
}

/**
 * `compute_score` (skillopt/utils/scoring.py): mean hard and mean soft over a rollout's results, summed left to
 * right as Python 3.11's `sum` does (0, 0 for no results). Missing fields count as 0.
 */
export function computeScore(results: readonly { hard?: number; soft?: number }[]): { hard: number; soft: number } {
  if (results.length === 0) return { hard: 0, soft: 0 };
  let hard = 0;
  let soft = 0;
  for (const result of results) {
    hard += result.hard ?? 0;
    soft += result.soft ?? 0;
  }
  return { hard: hard / results.length, soft: soft / results.length };
}

/** `skill_hash` (skillopt/utils/scoring.py): the val-score cache key, sha256 of the UTF-8 text, 16 hex digits. */
export function skillHash(content: string): string {
  return createHash("sha256").update(content, "utf8").digest("hex").slice(0, 16);
}

/** `select_gate_score`: (hard, soft) projected onto the one number the gate compares. */
export function selectGateScore(hard: number, soft: number, settings: GateScoreSettings, skillContent = ""): number {
  let score: number;
  if (settings.metric === "hard") score = hard;
  else if (settings.metric === "soft") score = soft;
  else {
    const w = Math.max(0, Math.min(1, settings.mixedWeight));
    score = (1 - w) * hard + w * soft;
  }
  if (settings.useSemanticDensity) {
    score += settings.semanticDensityWeight * computeSemanticDensity(skillContent, settings.leadingWords);
  }
  return score;
}

/** `evaluate_gate`: the strict seed rule. */
export function evaluateGate(
  candidateSkill: string,
  candidate: { hard: number; soft: number },
  state: GateState,
  globalStep: number,
  settings: GateScoreSettings = SEED_GATE_SCORE,
): GateResult {
  const score = selectGateScore(candidate.hard, candidate.soft, settings, candidateSkill);
  return decide(candidateSkill, score, score > state.currentScore, state, globalStep);
}

function decide(candidateSkill: string, score: number, accepted: boolean, state: GateState, globalStep: number): GateResult {
  if (!accepted) return { action: "reject", ...state };
  if (score > state.bestScore) {
    return { action: "accept_new_best", currentSkill: candidateSkill, currentScore: score, bestSkill: candidateSkill, bestScore: score, bestStep: globalStep };
  }
  return { ...state, action: "accept", currentSkill: candidateSkill, currentScore: score };
}

/**
 * The trainer's branch for `use_gate: false`: validation still runs, the candidate always becomes current
 * (`force_accept`), and the best is tracked when the score beats it.
 */
export function forceAcceptGate(candidateSkill: string, score: number, state: GateState, globalStep: number): GateResult {
  const newBest = score > state.bestScore;
  return {
    action: "force_accept",
    currentSkill: candidateSkill,
    currentScore: score,
    bestSkill: newBest ? candidateSkill : state.bestSkill,
    bestScore: newBest ? score : state.bestScore,
    bestStep: newBest ? globalStep : state.bestStep,
  };
}

/** The paired view of one decision: the current and the candidate skill on the same val items. */
export interface GateStatistics {
  /** Val items right with the current skill and wrong with the candidate. */
  broken: number;
  /** Val items wrong with the current skill and right with the candidate. */
  fixed: number;
  /** One-sided exact McNemar p-value that the candidate is better (P[X ≥ fixed], X ~ Bin(fixed + broken, ½)). */
  pValue: number;
  /** Paired bootstrap interval of candidate − current hard score (lib/stats' fixed seed). */
  difference: BootstrapInterval;
}

/**
 * Skillboard's statistics for every gate decision (shown whatever the gate). `current` and `candidate` are the
 * per-item hard scores on the same val items in the same order; an item counts as right when its hard
 * score is ≥ 1, as in run comparisons.
 */
export function gateStatistics(current: readonly number[], candidate: readonly number[], resamples?: number): GateStatistics {
  if (current.length !== candidate.length) throw new RangeError("the two skills must be scored on the same val items");
  let broken = 0;
  let fixed = 0;
  current.forEach((before, index) => {
    const outcome = pairedOutcome(before, candidate[index]!);
    if (outcome === "broken") broken++;
    else if (outcome === "fixed") fixed++;
  });
  const difference = pairedBootstrapInterval(current, candidate, resamples === undefined ? {} : { resamples });
  return { broken, fixed, pValue: mcnemarExactOneSidedPValue(broken, fixed), difference };
}

/**
 * DEVIATION from the seed (Skillboard's opt-in "mcnemar" gate): the candidate must pass the seed's strict rule
 * AND more val items must have been fixed than broken with a one-sided exact McNemar p-value ≤ alpha.
 * Scores, the new-best rule and the state update are the seed's.
 */
export function evaluateMcnemarGate(
  candidateSkill: string,
  candidate: { hard: number; soft: number },
  state: GateState,
  globalStep: number,
  statistics: Pick<GateStatistics, "broken" | "fixed" | "pValue">,
  alpha: number,
  settings: GateScoreSettings = SEED_GATE_SCORE,
): GateResult & { deviation: "mcnemar"; significant: boolean } {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be between 0 and 1, got ${alpha}`);
  const score = selectGateScore(candidate.hard, candidate.soft, settings, candidateSkill);
  const significant = statistics.fixed > statistics.broken && statistics.pValue <= alpha;
  const result = decide(candidateSkill, score, score > state.currentScore && significant, state, globalStep);
  return { ...result, deviation: "mcnemar", significant };
}
