/** Chat models served over the OpenAI Chat Completions API: OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp. */

import type OpenAI from "openai";
import type { ChatCompletion } from "openai/resources/chat/completions";
import { classifyAttemptError, MalformedResponseError, type FailureContext } from "./attempt-failure";
import { DEFAULT_BACKOFF, type BackoffOptions } from "./backoff";
import { ChatRequestBodyEncoder } from "./chat-request-body";
import type { RequestGate } from "./limits/request-gate";
import { keepAliveFetch } from "./keep-alive-fetch";
import { loadOpenAISdk, type OpenAISdkModule } from "./openai-sdk";
import { callWithRetries } from "./retrying-call";
import { reuseRequestHeaders } from "./reused-request-headers";
import { redactSecrets } from "../text/redact-secrets";
import type { BackendKind, CallObserver, ChatModel, ChatRequest, ChatResponse } from "./types";

export const DEFAULT_MAX_RETRIES = 5;

// One object for every request: the SDK's URL and headers are built once per header object (reused-request-headers.ts).
const JSON_CONTENT = Object.freeze({ "content-type": "application/json" });

/** Local servers ignore the key, but the SDK refuses to start without one. */
const LOCAL_SERVER_PLACEHOLDER_KEY = "skillboard-no-key";

interface CommonModelOptions {
  /** Deadline for each attempt (the seed's exec_timeout), milliseconds. */
  callTimeoutMs: number;
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries?: number;
  backoff?: BackoffOptions;
  /** Adaptive concurrency and rate caps shared with the process's other calls to this server and model. */
  gate?: RequestGate;
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
  // Every option is passed explicitly so that no OPENAI_* variable changes behaviour behind our back.
  const client = (sdk: OpenAISdkModule) => new sdk.OpenAI({
    apiKey,
    baseURL,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: sdkBackstopTimeout(options.callTimeoutMs),
    logLevel: "off",
    fetch: keepAliveFetch,
  });
  return new OpenAICompatibleChatModel(client, "openai", options.model, options, apiKey, {
    providerLabel: "OpenAI-compatible",
    model: options.model,
    isAzure: false,
  });
}

export function createAzureChatModel(options: AzureChatModelOptions): ChatModel {
  if (!options.apiKey) throw new Error("No API key given for Azure OpenAI: set AZURE_OPENAI_API_KEY");
  if (!options.deployment.trim()) throw new Error("No deployment given for Azure OpenAI: set AZURE_OPENAI_DEPLOYMENT");
  const endpoint = validatedURL(options.endpoint, "Azure endpoint").replace(/\/+$/, "");
  // We pass the /openai base URL ourselves rather than `endpoint`: the SDK would otherwise also read
  // OPENAI_BASE_URL from the environment and refuse the combination.
  const client = (sdk: OpenAISdkModule) => new sdk.AzureOpenAI({
    apiKey: options.apiKey,
    baseURL: `${endpoint}/openai`,
    deployment: options.deployment,
    apiVersion: options.apiVersion,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: sdkBackstopTimeout(options.callTimeoutMs),
    logLevel: "off",
    fetch: keepAliveFetch,
  });
  return new OpenAICompatibleChatModel(client, "azure", options.deployment, options, options.apiKey, {
    providerLabel: "Azure OpenAI",
    model: options.deployment,
    isAzure: true,
  });
}

class OpenAICompatibleChatModel implements ChatModel {
  private readonly maxRetries: number;
  private readonly backoff: BackoffOptions;
  private readonly client: Promise<OpenAI>;
  private readonly encoder: ChatRequestBodyEncoder;
  /**
   * Where create() would post. For Azure the SDK puts the deployment into the path itself (AzureOpenAI.buildRequest,
   * which reads it from a params object, and refuses bytes): given here, the path is the one it would make.
   */
  private readonly path: string;

  constructor(
    /** Builds the SDK client once the SDK is loaded. */
    makeClient: (sdk: OpenAISdkModule) => OpenAI,
    readonly backend: BackendKind,
    readonly model: string,
    private readonly options: CommonModelOptions,
    private readonly apiKey: string,
    private readonly failureContext: FailureContext,
  ) {
    this.maxRetries = Math.max(0, Math.trunc(options.maxRetries ?? DEFAULT_MAX_RETRIES));
    // Loading starts now, so it overlaps whatever comes before the first call; a failure is reported by that call.
    this.client = loadOpenAISdk().then((sdk) => reuseRequestHeaders(makeClient(sdk)));
    this.client.catch(() => undefined);
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.encoder = new ChatRequestBodyEncoder(model);
    this.path = failureContext.isAzure ? `/deployments/${model}/chat/completions` : "/chat/completions";
  }

  async complete(request: ChatRequest, observer?: CallObserver): Promise<ChatResponse> {
    // What `client.chat.completions.create(params)` would send, encoded here (see ChatRequestBodyEncoder) and posted
    // through the same client: create() is post(path, { body: params, stream: false }), and the SDK sends bytes as given.
    const body = this.encoder.encode(request.messages, request.maxCompletionTokens, request.temperature);
    const client = await this.client;
    const { value: completion, stats } = await callWithRetries(
      async (attemptSignal) => {
        const result: unknown = await client.post(this.path, {
          body, headers: JSON_CONTENT, stream: false, signal: attemptSignal, maxRetries: 0,
        });
        return asChatCompletion(result);
      },
      {
        maxRetries: this.maxRetries,
        backoff: this.backoff,
        callTimeoutMs: this.options.callTimeoutMs,
        signal: request.signal,
        observer,
        classify: (error) => classifyAttemptError(error, this.failureContext),
        gate: this.options.gate && {
          gate: this.options.gate,
          // Characters / 4 for the prompt plus up to 1,024 for the reply, corrected by the reply's real usage.
          estimatedTokens: Math.ceil(request.messages.reduce((sum, m) => sum + m.content.length, 0) / 4) + Math.min(request.maxCompletionTokens, 1024),
          tokensOf: (value) => (value as ChatCompletion).usage?.total_tokens ?? 0,
        },
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

/** The SDK hands back a string when the server did not send JSON; both that and a missing message are retryable. */
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

/** Our own deadline governs; the SDK's is a backstop set just past it (it must be a whole number). */
function sdkBackstopTimeout(callTimeoutMs: number): number {
  if (!(callTimeoutMs > 0)) throw new Error(`callTimeoutMs must be positive, got ${callTimeoutMs}`);
  return Math.ceil(callTimeoutMs) + 1_000;
}

function validatedURL(url: string, what: string): string {
  try {
    new URL(url);
  } catch {
    throw new Error(`The model server ${what} is not a valid URL`);
  }
  return url;
}

