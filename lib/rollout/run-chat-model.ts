import { createChatModel, type ChatModel } from "../model";
import { sharedRequestGate, type RequestGate } from "../model/limits/request-gate";
import type { RunConfig } from "../runs/run-config";

/** The chat model a run's configuration calls: its backend and model, its call timeout and retries. */
export function chatModelForRun(config: RunConfig): ChatModel {
  const { model: selection, settings } = config;
  if (selection.backend === "agent") throw new Error("an agent run calls its agent command, not a chat model");
  if (selection.backend === "imported") {
    throw new Error("these results were imported from a file, which does not say which model produced them: start a new run and choose a backend and model");
  }
  const gate = requestGateForRun(config);
  return createChatModel({ ...selection, backend: selection.backend }, { callTimeoutMs: settings.execTimeoutS * 1000, maxRetries: settings.maxRetries, gate });
}

/** The process's shared gate (adaptive concurrency, rate caps) for the run's server and model; undefined when none. */
export function requestGateForRun(config: RunConfig): RequestGate | undefined {
  const { model: selection, settings } = config;
  return sharedRequestGate({ backend: selection.backend, baseURL: selection.baseURL, model: selection.model ?? "" }, {
    adaptive: settings.adaptiveConcurrency ? { floor: Math.min(settings.concurrencyFloor, settings.concurrency), max: settings.concurrency } : undefined,
    requestsPerMinute: settings.requestsPerMinute,
    tokensPerMinute: settings.tokensPerMinute,
  });
}
