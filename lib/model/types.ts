/** A provider-neutral chat completion interface, so the executor never depends on one SDK. */

export type ChatRole = "system" | "user" | "assistant";

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export type BackendKind = "openai" | "azure" | "baseline";

export interface ChatRequest {
  messages: ChatMessage[];
  maxCompletionTokens: number;
  temperature?: number;
  /** Aborts the call (run cancelled or item task timeout). */
  signal?: AbortSignal;
}

/** How a call went across its attempts; reported on success and on failure. */
export interface CallStats {
  attempts: number;
  retries: number;
  /** Responses with HTTP 429 seen across attempts. */
  rateLimited: number;
}

export interface ChatResponse extends CallStats {
  text: string;
  promptTokens: number;
  completionTokens: number;
  /** Set when the reply came from the response cache: the run that first produced it (no model was called). */
  cachedFromRunId?: number;
}

/** Observes a call while it is under way (the dashboard shows calls retrying right now). */
export interface CallObserver {
  onRetryScheduled?(info: { attempt: number; delayMs: number; status?: number; rateLimited: boolean; message: string }): void;
  onRetryStarted?(): void;
}

export interface ChatModel {
  readonly backend: BackendKind;
  /** Model or deployment name, as stored with the run. */
  readonly model: string;
  complete(request: ChatRequest, observer?: CallObserver): Promise<ChatResponse>;
}
