/** Turns whatever one attempt threw into a decision: retry it, or stop with a message for the user. */

import type { APIConnectionError, APIError } from "openai";
import { redactSecrets } from "../text/redact-secrets";
import { serverRequestedDelayMs } from "./backoff";
import { loadedOpenAISdk } from "./openai-sdk";

/** 200 response whose body is not a chat completion (not JSON, or no choices[0].message). */
export class MalformedResponseError extends Error {
  override readonly name = "MalformedResponseError";
}

/** Our own per-attempt deadline fired (the seed's exec_timeout). */
export class AttemptTimeoutError extends Error {
  override readonly name = "AttemptTimeoutError";
  constructor(timeoutMs: number) {
    super(`no response from the model server within ${timeoutMs} ms`);
  }
}

export interface AttemptFailure {
  retryable: boolean;
  status?: number;
  /** The server's error code, if any. */
  code?: string;
  /** One line describing what went wrong in this attempt. */
  message: string;
  retryAfterMs?: number;
  cause: unknown;
}

export interface FailureContext {
  /** "OpenAI-compatible" or "Azure OpenAI", for messages. */
  providerLabel: string;
  /** Model or deployment name, for the 404 hint. */
  model: string;
  isAzure: boolean;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
  408: "Request Timeout", 409: "Conflict", 413: "Payload Too Large", 415: "Unsupported Media Type",
  422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
  503: "Service Unavailable", 504: "Gateway Timeout",
};

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export function classifyAttemptError(error: unknown, context: FailureContext): AttemptFailure {
  // Server and SDK messages quote URLs, headers and keys: whatever the attempt reports is redacted.
  const failure = classify(error, context);
  return { ...failure, message: redactSecrets(failure.message) };
}

function classify(error: unknown, context: FailureContext): AttemptFailure {
  if (error instanceof MalformedResponseError || error instanceof SyntaxError) {
    return { retryable: true, message: `malformed response from the model server: ${error.message}`, cause: error };
  }
  if (error instanceof AttemptTimeoutError) return { retryable: true, message: error.message, cause: error };
  const sdk = loadedOpenAISdk();
  // Order matters: the timeout error is a subclass of the connection error, which is an APIError.
  if (sdk && error instanceof sdk.APIConnectionTimeoutError) {
    return { retryable: true, message: "the request to the model server timed out", cause: error };
  }
  if (sdk && error instanceof sdk.APIConnectionError) {
    return { retryable: true, message: `could not reach the model server: ${connectionDetail(error)}`, cause: error };
  }
  if (sdk && error instanceof sdk.APIError && typeof error.status === "number") {
    return classifyStatusError(error as APIError<number>, context);
  }
  // Unknown failures are treated as transient: a retry is cheap, stopping a whole run is not.
  const message = error instanceof Error ? error.message : String(error);
  return { retryable: true, message: `model call failed: ${message}`, cause: error };
}

function classifyStatusError(error: APIError<number>, context: FailureContext): AttemptFailure {
  const status = error.status;
  const statusLabel = `${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ""}`;
  const serverMessage = serverMessageOf(error);
  const code = typeof error.code === "string" ? error.code : undefined;
  if (isRetryableStatus(status)) {
    return {
      retryable: true,
      status,
      code,
      message: `model server error (${statusLabel})${serverMessage ? `: ${serverMessage}` : ""}`,
      retryAfterMs: serverRequestedDelayMs(error.headers),
      cause: error,
    };
  }
  const hint = fatalHint(status, context);
  return {
    retryable: false,
    status,
    code,
    message:
      `${context.providerLabel} model server rejected the request (${statusLabel})` +
      `${serverMessage ? `: ${serverMessage}` : ""}${hint ? ` — ${hint}` : ""}`,
    cause: error,
  };
}

function fatalHint(status: number, context: FailureContext): string {
  const keyVar = context.isAzure ? "AZURE_OPENAI_API_KEY" : "OPENAI_API_KEY";
  if (status === 401) return `check the API key (${keyVar})`;
  if (status === 403) return `the API key (${keyVar}) is not allowed to use this model or endpoint`;
  if (status === 404) {
    return context.isAzure
      ? `the deployment name "${context.model}" may be wrong (AZURE_OPENAI_DEPLOYMENT), or the endpoint/API version may not match`
      : `the model name "${context.model}" may be wrong, or the base URL may not point at an OpenAI-compatible /v1 endpoint`;
  }
  return "";
}

/** The server's own explanation, kept short: error pages from proxies can be whole HTML documents. */
function serverMessageOf(error: APIError<number>): string {
  const body = error.error as { message?: unknown } | undefined;
  let text: string;
  if (body && typeof body === "object" && typeof body.message === "string") text = body.message;
  else text = error.message.replace(new RegExp(`^${error.status}\\s*`), "").replace(/^status code \(no body\)$/, "");
  if (/^\s*</.test(text)) text = text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " ");
  text = text.replace(/\s+/g, " ").trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function connectionDetail(error: APIConnectionError): string {
  const cause = error.cause as { message?: string; cause?: { code?: string; message?: string } } | undefined;
  // fetch nests the useful part two levels down: TypeError("fetch failed") -> Error("connect ECONNREFUSED …").
  const inner = cause?.cause?.message || cause?.cause?.code || cause?.message;
  return inner && inner !== "fetch failed" ? inner : error.message;
}
