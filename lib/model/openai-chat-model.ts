/** Chat models served over the OpenAI Chat Completions API: OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp. */

import type { ChatCompletion } from "openai/resources/chat/completions";
import { classifyAttemptError, MalformedResponseError, type FailureContext } from "./attempt-failure";
import { DEFAULT_BACKOFF, type BackoffOptions } from "./backoff";
import { azureEndpoint, openAIEndpoint, postChatCompletion, type ChatEndpoint } from "./chat-completions-http";
import { callWithRetries } from "./retrying-call";
import { redactSecrets } from "../text/redact-secrets";
import type { BackendKind, CallObserver, ChatMessage, ChatModel, ChatRequest, ChatResponse } from "./types";

export const DEFAULT_MAX_RETRIES = 5;

/** Local servers ignore the key; a placeholder is sent (as the SDK, which refuses to start without one, needed). */
const LOCAL_SERVER_PLACEHOLDER_KEY = "skillboard-no-key";

interface CommonModelOptions {
  /** Deadline for each attempt (the seed's exec_timeout), milliseconds. */
  callTimeoutMs: number;
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries?: number;
  backoff?: BackoffOptions;
}

export interface OpenAIChatModelOptions extends CommonModelOptions {
  /** e.g. "http://127.0.0.1:8000/v1"; defaults to the OpenAI API. */
  baseURL?: string;
  apiKey?: string;
  model: string;
}

export interface AzureChatModelOptions extends CommonModelOptions {
  /** e.g. "https://my-resource.openai.azure.com" */
  endpoint: string;
  apiKey: string;
  deployment: string;
  apiVersion: string;
}

export function createOpenAIChatModel(options: OpenAIChatModelOptions): ChatModel {
  if (!options.model.trim()) throw new Error("No model name given for the OpenAI-compatible backend");
  const baseURL = options.baseURL ? validatedURL(options.baseURL, "base URL") : "https://api.openai.com/v1";
  const apiKey = options.apiKey || (options.baseURL ? LOCAL_SERVER_PLACEHOLDER_KEY : undefined);
  if (!apiKey) throw new Error("No API key given for the OpenAI API: set OPENAI_API_KEY, or a base URL for a local server");
  // Built from the options alone: no OPENAI_* variable changes behaviour behind our back.
  const endpoint = openAIEndpoint(baseURL, apiKey);
  return new OpenAICompatibleChatModel(endpoint, "openai", options.model, options, apiKey, {
    providerLabel: "OpenAI-compatible",
    model: options.model,
    isAzure: false,
  });
}

export function createAzureChatModel(options: AzureChatModelOptions): ChatModel {
  if (!options.apiKey) throw new Error("No API key given for Azure OpenAI: set AZURE_OPENAI_API_KEY");
  if (!options.deployment.trim()) throw new Error("No deployment given for Azure OpenAI: set AZURE_OPENAI_DEPLOYMENT");
  const endpoint = validatedURL(options.endpoint, "Azure endpoint").replace(/\/+$/, "");
  const chatEndpoint = azureEndpoint(endpoint, options.deployment, options.apiVersion, options.apiKey);
  return new OpenAICompatibleChatModel(chatEndpoint, "azure", options.deployment, options, options.apiKey, {
    providerLabel: "Azure OpenAI",
    model: options.deployment,
    isAzure: true,
  });
}

class OpenAICompatibleChatModel implements ChatModel {
  private readonly maxRetries: number;
  private readonly backoff: BackoffOptions;

  constructor(
    private readonly endpoint: ChatEndpoint,
    readonly backend: BackendKind,
    readonly model: string,
    private readonly options: CommonModelOptions,
    private readonly apiKey: string,
    private readonly failureContext: FailureContext,
  ) {
    this.maxRetries = Math.max(0, Math.trunc(options.maxRetries ?? DEFAULT_MAX_RETRIES));
    if (!(options.callTimeoutMs > 0)) throw new Error(`callTimeoutMs must be positive, got ${options.callTimeoutMs}`);
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  private systemMessage: { content: string; json: string } | undefined;

  private messageJson({ role, content }: ChatMessage): string {
    if (role !== "system") return JSON.stringify({ role, content });
    if (this.systemMessage?.content !== content) this.systemMessage = { content, json: JSON.stringify({ role, content }) };
    return this.systemMessage.json;
  }

  async complete(request: ChatRequest, observer?: CallObserver): Promise<ChatResponse> {
    // JSON.stringify of { model, messages: [{ role, content }], max_completion_tokens, temperature? }, written out so
    // that the system message, the same ~10 KB in every call of a run, is escaped once (messageJson).
    const body =
      `{"model":${JSON.stringify(this.model)},"messages":[${request.messages.map((message) => this.messageJson(message)).join(",")}],` +
      `"max_completion_tokens":${JSON.stringify(request.maxCompletionTokens)}` +
      `${request.temperature !== undefined ? `,"temperature":${JSON.stringify(request.temperature)}` : ""}}`;
    const { value: completion, stats } = await callWithRetries(
      async (attemptSignal) => {
        const result: unknown = await postChatCompletion(this.endpoint, body, attemptSignal);
        return asChatCompletion(result);
      },
      {
        maxRetries: this.maxRetries,
        backoff: this.backoff,
        callTimeoutMs: this.options.callTimeoutMs,
        signal: request.signal,
        observer,
        classify: (error) => classifyAttemptError(error, this.failureContext),
        // The environment's keys and URL credentials, and this model's own key wherever it came from.
        scrub: (message) => redactSecrets(message, process.env, this.apiKey === LOCAL_SERVER_PLACEHOLDER_KEY ? [] : [this.apiKey]),
      },
    );
    return {
      text: textOf(completion),
      promptTokens: completion.usage?.prompt_tokens ?? 0,
      completionTokens: completion.usage?.completion_tokens ?? 0,
      ...stats,
    };
  }
}

/** A string comes back when the server did not send JSON; both that and a missing message are retryable. */
function asChatCompletion(result: unknown): ChatCompletion {
  if (typeof result !== "object" || result === null) {
    const preview = String(result).replace(/\s+/g, " ").slice(0, 80);
    throw new MalformedResponseError(`body is not JSON (starts with ${JSON.stringify(preview)})`);
  }
  const choices = (result as { choices?: unknown }).choices;
  const first = Array.isArray(choices) ? (choices[0] as { message?: unknown } | undefined) : undefined;
  if (!first || typeof first.message !== "object" || first.message === null) {
    throw new MalformedResponseError("no choices[0].message in the response");
  }
  return result as ChatCompletion;
}

/** Message content; null (a refusal or tool call) or a non-string from a loose server reads as "". */
function textOf(completion: ChatCompletion): string {
  const content: unknown = completion.choices[0]?.message.content;
  return typeof content === "string" ? content : "";
}

function validatedURL(url: string, what: string): string {
  try {
    new URL(url);
  } catch {
    throw new Error(`The model server ${what} is not a valid URL`);
  }
  return url;
}

