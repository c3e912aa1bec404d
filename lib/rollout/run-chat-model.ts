import { createChatModel, type ChatModel } from "../model";
import type { RunConfig } from "../runs/run-config";

/** The chat model a run's configuration calls: its backend and model, its call timeout and retries. */
export function chatModelForRun(config: RunConfig): ChatModel {
  const { model: selection, settings } = config;
  if (selection.backend === "agent") throw new Error("an agent run calls its agent command, not a chat model");
  if (selection.backend === "imported") {
    throw new Error("these results were imported from a file, which does not say which model produced them: start a new run and choose a backend and model");
  }
  return createChatModel({ ...selection, backend: selection.backend }, { callTimeoutMs: settings.execTimeoutS * 1000, maxRetries: settings.maxRetries });
}
