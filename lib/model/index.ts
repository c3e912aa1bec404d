/** Model providers: one ChatModel interface over OpenAI-compatible servers, Azure OpenAI, and an offline baseline. */

export type {
  BackendKind,
  CallObserver,
  CallStats,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  ChatRole,
} from "./types";
export { FatalModelError, ModelCallAbortedError, ModelCallError, isAbortError } from "./errors";
export { DEFAULT_BACKOFF, backoffDelayMs, serverRequestedDelayMs, type BackoffOptions } from "./backoff";
export {
  DEFAULT_MAX_RETRIES,
  createAzureChatModel,
  createOpenAIChatModel,
  type AzureChatModelOptions,
  type OpenAIChatModelOptions,
} from "./openai-chat-model";
export { BASELINE_MODEL_NAME, baselineAnswer, createBaselineChatModel } from "./baseline-chat-model";
export { chooseSpan, parseQAPrompt, type ChosenSpan, type QAPrompt } from "./extractive-reader";
// Creating a model from a run's selection reads the environment; re-exported so callers need one import.
export {
  createChatModel,
  defaultBackend,
  readModelEnvironment,
  redactBaseURL,
  type EnvSource,
  type ModelCallSettings,
  type ModelEnvironment,
  type ModelSelection,
} from "./environment";
