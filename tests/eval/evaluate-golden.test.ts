/**
 * Golden vectors for the evaluator. tests/fixtures/golden/eval.json was produced with python3 (3.11, Unicode 14)
 * running the seed's evaluator (normalize_answer, extract_answer, exact_match, f1_score, sub_em, evaluate) and
 * its fail_reason / eval_detail f-strings. It holds `normalize` (input, normalize_answer(input)), `extract`
 * (input, extract_answer(input)) and `evaluate` (response, golds, question, em, f1, subEm, predictedAnswer,
 * failReason — null when EM is 1 — and record, the eval_detail text).
 */
import { describe, expect, it } from "vitest";
import { emFailReason, evaluate, evaluationRecord, extractAnswer, normalizeAnswer } from "@/lib/eval";
import { mismatches, readGolden } from "../support/golden";

interface EvalGolden {
  normalize: { input: string; output: string }[];
  extract: { input: string; output: string }[];
  evaluate: {
    response: string;
    golds: string[];
    question: string;
    em: number;
    f1: number;
    subEm: number;
    predictedAnswer: string;
    failReason: string | null;
    record: string;
  }[];
}

const golden = readGolden<EvalGolden>("eval.json");

describe("evaluator matches python3 golden vectors", () => {
  it("has hundreds of cases", () => {
    expect(golden.normalize.length).toBeGreaterThan(300);
    expect(golden.extract.length).toBeGreaterThan(300);
    expect(golden.evaluate.length).toBeGreaterThan(500);
  });

  it("normalize_answer", () => {
    expect(mismatches(golden.normalize, (c) => c.output, (c) => normalizeAnswer(c.input))).toEqual([]);
  });

  it("extract_answer", () => {
    expect(mismatches(golden.extract, (c) => c.output, (c) => extractAnswer(c.input))).toEqual([]);
  });

  it("evaluate: em, f1 (bit-exact), sub_em, predicted answer", () => {
    expect(
      mismatches(
        golden.evaluate,
        (c) => ({ em: c.em, f1: c.f1, subEm: c.subEm, predictedAnswer: c.predictedAnswer }),
        (c) => evaluate(c.response, c.golds),
      ),
    ).toEqual([]);
  });

  it("fail_reason and eval_detail texts", () => {
    const cases = golden.evaluate;
    const withFailReason = cases.filter((c) => c.failReason !== null);
    expect(withFailReason.length).toBeGreaterThan(100);
    expect(
      mismatches(withFailReason, (c) => c.failReason, (c) => emFailReason(c.predictedAnswer, c.golds)),
    ).toEqual([]);
    expect(
      mismatches(cases, (c) => c.record, (c) => evaluationRecord(c.question, c.golds, evaluate(c.response, c.golds))),
    ).toEqual([]);
  });
});
