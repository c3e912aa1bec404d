import type { StoredItemResult } from "../runs/types";
import { PyFloat, type PyJson } from "./python-json";

/**
 * The row the seed writes to results.jsonl for this result: process_one's row, or the batch-level
 * timeout / unexpected-error row, with the seed's keys in the seed's order and Python's types.
 */
export function toSeedRow(r: StoredItemResult): { [key: string]: PyJson } {
  if (r.phase === "timeout" || r.phase === "error") {
    return {
      id: r.itemId,
      question: r.question,
      task_description: r.question,
      task_type: "searchqa",
      hard: r.hard,
      soft: new PyFloat(r.soft),
      predicted_answer: r.predictedAnswer,
      response: r.response,
      fail_reason: r.failReason,
      agent_ok: r.agentOk,
      n_turns: r.nTurns,
      gold_answer: r.goldAnswers,
      phase: r.phase,
    };
  }
  return {
    id: r.itemId,
    question: r.question,
    em: new PyFloat(r.em),
    f1: new PyFloat(r.f1),
    sub_em: new PyFloat(r.subEm),
    hard: r.hard,
    soft: new PyFloat(r.soft),
    predicted_answer: r.predictedAnswer,
    gold_answers: r.goldAnswers,
    response: r.response,
    fail_reason: r.failReason,
    agent_ok: r.agentOk,
    n_turns: r.nTurns,
  };
}
