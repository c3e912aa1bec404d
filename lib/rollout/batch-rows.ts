import { trialOf, type ItemResult, type RolloutItem } from "../runs/types";

/** The seed's _timeout_result: the per-item task timeout fired before the item finished. */
export function timeoutResult(item: RolloutItem, startedAt: Date, taskTimeoutS: number): ItemResult {
  return {
    ...emptyRow(item, startedAt),
    failReason: `task-timeout-${formatSeconds(taskTimeoutS)}s`,
    status: "timeout",
    phase: "timeout",
  };
}

/** The seed's _error_result: something other than the model failed while running the item. */
export function unexpectedErrorResult(item: RolloutItem, startedAt: Date, error: unknown): ItemResult {
  const name = error instanceof Error ? error.name || error.constructor.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  return {
    ...emptyRow(item, startedAt),
    failReason: `unexpected: ${name}: ${message}`,
    status: "error",
    phase: "error",
  };
}

function emptyRow(item: RolloutItem, startedAt: Date): Omit<ItemResult, "failReason" | "status" | "phase"> {
  const finishedAt = new Date();
  return {
    itemId: item.id,
    trial: trialOf(item),
    datasetItemId: item.datasetItemId,
    question: item.question,
    goldAnswers: item.answers,
    em: 0, f1: 0, subEm: 0, hard: 0, soft: 0,
    predictedAnswer: "",
    response: "",
    agentOk: false,
    nTurns: 0,
    latencyMs: finishedAt.getTime() - startedAt.getTime(),
    promptTokens: 0, completionTokens: 0,
    attempts: 0, retries: 0, rateLimited: 0,
    startedAt,
    finishedAt,
    userPrompt: "",
    conversation: [],
  };
}

function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : String(Number(seconds.toFixed(3)));
}
