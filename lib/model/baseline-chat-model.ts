/** The offline "baseline" backend: an extractive reader, labelled as such in every response. */

import { throwIfAborted } from "./errors";
import { chooseSpan, parseQAPrompt } from "./extractive-reader";
import type { ChatModel, ChatRequest, ChatResponse } from "./types";

export const BASELINE_MODEL_NAME = "extractive-baseline";

const LABEL = "Extractive baseline (no language model)";

export function createBaselineChatModel(): ChatModel {
  return {
    backend: "baseline",
    model: BASELINE_MODEL_NAME,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      throwIfAborted(request.signal);
      const lastUser = [...request.messages].reverse().find((message) => message.role === "user");
      return { text: baselineAnswer(lastUser?.content ?? ""), promptTokens: 0, completionTokens: 0, attempts: 1, retries: 0, rateLimited: 0 };
    },
  };
}

/** The full response text for one user message (exported for tests and previews). */
export function baselineAnswer(userMessage: string): string {
  const prompt = parseQAPrompt(userMessage);
  if (!prompt.context) return `${LABEL}: no context to read.\n<answer></answer>`;
  const chosen = chooseSpan(prompt);
  if (!chosen) return `${LABEL}: found no candidate span in the context.\n<answer></answer>`;
  return (
    `${LABEL}: chose "${chosen.span}" from passage ${chosen.passage} (overlap ${chosen.overlap}).\n` +
    `<answer>${chosen.span}</answer>`
  );
}
