/**
 * The gate against upstream's evaluate_gate / select_gate_score / compute_semantic_density (record_core.py
 * "gate"): every metric, weight and density setting over candidates that beat, tie and trail the current and
 * best scores. Then Skillboard's McNemar gate (a deviation from the seed) and the statistics shown for every
 * decision.
 */
import { describe, expect, it } from "vitest";
import {
  computeScore,
  computeSemanticDensity,
  evaluateGate,
  evaluateMcnemarGate,
  forceAcceptGate,
  gateStatistics,
  selectGateScore,
  skillHash,
  type GateMetric,
  type GateState,
} from "@/lib/optimize/gate";
import { pyFloatRepr } from "@/lib/text/python";
import { goldenSection } from "./golden";

interface Decision {
  metric: GateMetric;
  weight: string;
  density: boolean;
  skill: string;
  hard: string;
  soft: string;
  current: string;
  best: string;
  score: string;
  action: string;
  current_skill: string;
  current_score: string;
  best_skill: string;
  best_score: string;
  best_step: number;
}
interface GateGolden {
  skills: Record<string, string>;
  density: { skill: string; leading_words?: string[]; density: string }[];
  decisions: Decision[];
  scores: { results: { hard: number; soft: number }[]; hard: string; soft: string }[];
  hashes: { skill: string; hash: string }[];
}

const golden = goldenSection<GateGolden>("gate");
const state = (current: number, best: number): GateState => ({
  currentSkill: "CURRENT",
  currentScore: current,
  bestSkill: "BEST",
  bestScore: best,
  bestStep: 3,
});

describe("the seed gate matches upstream", () => {
  it("computes the semantic density of leading words", () => {
    const actual = golden.density.map((c) => ({
      ...c,
      density: pyFloatRepr(computeSemanticDensity(golden.skills[c.skill]!, c.leading_words)),
    }));
    expect(actual).toEqual(golden.density);
  });

  it("scores and decides every candidate as evaluate_gate does (strictly better, ties rejected)", () => {
    expect(new Set(golden.decisions.map((d) => d.action))).toEqual(new Set(["reject", "accept", "accept_new_best"]));
    const actual = golden.decisions.map((d) => {
      const settings = { metric: d.metric, mixedWeight: Number(d.weight), useSemanticDensity: d.density, semanticDensityWeight: 0.05 };
      const candidateSkill = golden.skills[d.skill]!;
      const candidate = { hard: Number(d.hard), soft: Number(d.soft) };
      const result = evaluateGate(candidateSkill, candidate, state(Number(d.current), Number(d.best)), 7, settings);
      const name = (skill: string) => (skill === "CURRENT" || skill === "BEST" ? skill : "CANDIDATE");
      return {
        ...d,
        score: pyFloatRepr(selectGateScore(candidate.hard, candidate.soft, settings, candidateSkill)),
        action: result.action,
        current_skill: name(result.currentSkill),
        current_score: pyFloatRepr(result.currentScore),
        best_skill: name(result.bestSkill),
        best_score: pyFloatRepr(result.bestScore),
        best_step: result.bestStep,
      };
    });
    expect(actual).toEqual(golden.decisions);
  });

  it("averages rollout scores and hashes skills as compute_score and skill_hash do", () => {
    const actual = golden.scores.map(({ results }) => {
      const { hard, soft } = computeScore(results);
      return { results, hard: pyFloatRepr(hard), soft: pyFloatRepr(soft) };
    });
    expect(actual).toEqual(golden.scores);
    expect(golden.hashes.map(({ skill }) => ({ skill, hash: skillHash(golden.skills[skill]!) }))).toEqual(golden.hashes);
  });

  it("force-accepts when the gate is off, tracking the best", () => {
    expect(forceAcceptGate("CAND", 0.5, state(0.7, 0.8), 9)).toEqual({
      action: "force_accept", currentSkill: "CAND", currentScore: 0.5, bestSkill: "BEST", bestScore: 0.8, bestStep: 3,
    });
    expect(forceAcceptGate("CAND", 0.9, state(0.7, 0.8), 9)).toMatchObject({ bestSkill: "CAND", bestScore: 0.9, bestStep: 9 });
  });
});

describe("Skillboard's McNemar gate (deviation)", () => {
  // 200 val items; the candidate fixes `fixed` items the current skill got wrong and breaks `broken` it got right.
  function scores(fixed: number, broken: number) {
    const current = Array.from({ length: 200 }, (_, i) => (i < 100 ? 1 : 0));
    const candidate = current.map((value, i) => (i < broken ? 0 : i >= 100 && i < 100 + fixed ? 1 : value));
    return { current, candidate };
  }

  it("rejects a one-item gain the strict gate accepts", () => {
    const { current, candidate } = scores(1, 0);
    const stats = gateStatistics(current, candidate, 500);
    expect(stats).toMatchObject({ fixed: 1, broken: 0, pValue: 0.5 });
    const strict = evaluateGate("CAND", { hard: 0.505, soft: 0 }, state(0.5, 0.5), 4);
    expect(strict.action).toBe("accept_new_best");
    const noisy = evaluateMcnemarGate("CAND", { hard: 0.505, soft: 0 }, state(0.5, 0.5), 4, stats, 0.05);
    expect(noisy).toMatchObject({ action: "reject", significant: false, deviation: "mcnemar", currentSkill: "CURRENT" });
  });

  it("accepts a clear gain, and never one the strict rule rejects", () => {
    const { current, candidate } = scores(12, 1);
    const stats = gateStatistics(current, candidate, 500);
    expect(stats.pValue).toBeCloseTo(14 / 8192, 12); // P[X ≤ 1], X ~ Bin(13, 1/2)
    expect(stats.difference.mean).toBeCloseTo(11 / 200, 12);
    expect(stats.difference.low).toBeGreaterThan(0);
    expect(evaluateMcnemarGate("CAND", { hard: 0.555, soft: 0 }, state(0.5, 0.6), 4, stats, 0.05)).toMatchObject({
      action: "accept", significant: true, currentSkill: "CAND", bestSkill: "BEST",
    });
    expect(evaluateMcnemarGate("CAND", { hard: 0.5, soft: 0 }, state(0.5, 0.6), 4, stats, 0.05).action).toBe("reject");
  });

  it("refuses a nonsensical alpha and unpaired scores", () => {
    const stats = { fixed: 3, broken: 0, pValue: 0.125 };
    expect(() => evaluateMcnemarGate("C", { hard: 1, soft: 1 }, state(0, 0), 1, stats, 0)).toThrow("alpha must be between 0 and 1");
    expect(() => gateStatistics([1, 0], [1])).toThrow("same val items");
  });
});
