import { pyFloatRepr, pyFormatFixed, pyRepr, pySplit } from "../text/python";
import { extractAnswer } from "./extract";
import { normalizeAnswer } from "./normalize";

/** Scores of one response, as the seed's `evaluate` returns them (1.0/0.0 flags, F1 in [0, 1]). */
export interface EvalResult {
  em: number;
  f1: number;
  subEm: number;
  predictedAnswer: string;
}

/** 1 when the normalised prediction equals some normalised gold answer. */
export function exactMatch(prediction: string, golds: readonly string[]): number {
  return exactMatchNormalized(normalizeAnswer(prediction), golds.map(normalizeAnswer));
}

/**
 * The seed's `f1_score`: best token-level F1 over the gold answers. An empty prediction scores 1 only against
 * an empty gold; golds that normalise to nothing are skipped otherwise. The arithmetic is written in the
 * seed's order so the doubles come out bit-identical.
 */
export function tokenF1(prediction: string, golds: readonly string[]): number {
  return tokenF1Normalized(normalizeAnswer(prediction), golds.map(normalizeAnswer));
}

/**
 * The seed's `sub_em`: 1 when either normalised string contains the other. As in Python, the empty string is
 * contained in everything, so a prediction that normalises to "" matches any gold.
 */
export function substringMatch(prediction: string, golds: readonly string[]): number {
  return substringMatchNormalized(normalizeAnswer(prediction), golds.map(normalizeAnswer));
}

/**
 * The seed's `evaluate`: extract the answer from the response, then score it against every gold. The seed normalises
 * the prediction and each gold once per metric; normalising is a pure function, so here it is done once for all three.
 */
export function evaluate(responseText: string, golds: readonly string[]): EvalResult {
  const predictedAnswer = extractAnswer(responseText);
  const prediction = normalizeAnswer(predictedAnswer);
  const normalizedGolds = golds.map(normalizeAnswer);
  return {
    em: exactMatchNormalized(prediction, normalizedGolds),
    f1: tokenF1Normalized(prediction, normalizedGolds),
    subEm: substringMatchNormalized(prediction, normalizedGolds),
    predictedAnswer,
  };
}

function exactMatchNormalized(prediction: string, golds: readonly string[]): number {
  return golds.includes(prediction) ? 1.0 : 0.0;
}

function countTokens(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/** Size of the multiset intersection, Python's `sum((Counter(a) & Counter(b)).values())`. */
function sharedTokenCount(a: readonly string[], b: readonly string[]): number {
  const countsB = countTokens(b);
  let shared = 0;
  for (const [token, countA] of countTokens(a)) shared += Math.min(countA, countsB.get(token) ?? 0);
  return shared;
}

function tokenF1Normalized(prediction: string, golds: readonly string[]): number {
  const predictionTokens = pySplit(prediction);
  if (predictionTokens.length === 0) return golds.some((gold) => pySplit(gold).length === 0) ? 1.0 : 0.0;
  let best = 0.0;
  for (const gold of golds) {
    const goldTokens = pySplit(gold);
    if (goldTokens.length === 0) continue;
    const shared = sharedTokenCount(predictionTokens, goldTokens);
    if (shared === 0) continue;
    const precision = shared / predictionTokens.length;
    const recall = shared / goldTokens.length;
    best = Math.max(best, (2 * precision * recall) / (precision + recall));
  }
  return best;
}

function substringMatchNormalized(prediction: string, golds: readonly string[]): number {
  return golds.some((gold) => prediction.includes(gold) || gold.includes(prediction)) ? 1.0 : 0.0;
}

/**
 * The seed's fail_reason when EM is 0: f"EM=0: predicted '{pred}' but expected {gold_answers}". The answer
 * sits in plain quotes (no escaping) while the gold list is printed as a Python list repr.
 */
export function emFailReason(predictedAnswer: string, golds: readonly string[]): string {
  return `EM=0: predicted '${predictedAnswer}' but expected ${pyRepr(golds)}`;
}

/** The seed's eval_detail message appended to the conversation for the analyst. */
export function evaluationRecord(question: string, golds: readonly string[], r: EvalResult): string {
  return (
    "[EVALUATION RESULT]\n" +
    `Question: ${question}\n` +
    `Predicted answer: ${pyRepr(r.predictedAnswer)}\n` +
    `Gold answers: ${pyRepr(golds)}\n` +
    `Exact Match: ${pyFloatRepr(r.em)}\n` +
    `F1: ${pyFormatFixed(r.f1, 4)}`
  );
}
