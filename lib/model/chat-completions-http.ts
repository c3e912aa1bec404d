/**
 * One Chat Completions request over node:http, on kept-alive connections shared by the whole process. This replaces
 * the openai SDK's request pipeline, which cost ~0.15 ms of CPU per call in a profile of a 20,000-item run (building
 * and logging request details, Headers and Response objects, web streams for a body of a few hundred bytes), about a
 * fifth of a run's CPU. The SDK is still the source of truth for errors: failures are thrown as its own classes
 * (APIError.generate for a status, APIConnectionError for the connection), built as the SDK builds them, so they are
 * classified and reported exactly as before (attempt-failure.ts).
 */
import http from "node:http";
import https from "node:https";
import { loadOpenAISdk } from "./openai-sdk";

const AGENTS = {
  "http:": new http.Agent({ keepAlive: true, keepAliveMsecs: 10_000, scheduling: "lifo" }),
  "https:": new https.Agent({ keepAlive: true, keepAliveMsecs: 10_000, scheduling: "lifo" }),
};

export interface ChatEndpoint {
  url: URL;
  /** Authentication and content headers, the same for every request. */
  headers: Readonly<Record<string, string>>;
}

const CONTENT_HEADERS = { "content-type": "application/json", accept: "application/json", "user-agent": "skillboard" };

/** `<baseURL>/chat/completions` with `Authorization: Bearer <key>`, as the SDK's OpenAI client builds it. */
export function openAIEndpoint(baseURL: string, apiKey: string): ChatEndpoint {
  const path = baseURL.endsWith("/") ? "chat/completions" : "/chat/completions";
  return { url: new URL(baseURL + path), headers: { ...CONTENT_HEADERS, authorization: `Bearer ${apiKey}` } };
}

/** `<endpoint>/openai/deployments/<deployment>/chat/completions?api-version=…` with `api-key`, as AzureOpenAI builds it. */
export function azureEndpoint(endpoint: string, deployment: string, apiVersion: string, apiKey: string): ChatEndpoint {
  const url = new URL(`${endpoint}/openai/deployments/${deployment}/chat/completions`);
  url.searchParams.set("api-version", apiVersion);
  return { url, headers: { ...CONTENT_HEADERS, "api-key": apiKey } };
}

interface RawResponse {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

/**
 * POSTs `body` (JSON text). Resolves to the parsed JSON of a 2xx response (the text when the server did not say JSON, null
 * for 204, as the SDK does); rejects with the SDK's status error for any other status, with its APIConnectionError when
 * the connection fails or the response is cut off, and with an AbortError when `signal` aborts.
 */
export async function postChatCompletion(endpoint: ChatEndpoint, body: string, signal: AbortSignal): Promise<unknown> {
  let response: RawResponse;
  try {
    response = await post(endpoint, Buffer.from(body), signal);
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    const sdk = await loadOpenAISdk();
    // As the SDK wraps what fetch throws: TypeError("fetch failed") with the socket's error as its cause.
    throw new sdk.APIConnectionError({ cause: new TypeError("fetch failed", { cause: error }) });
  }
  const { status, rawHeaders } = response;
  const text = response.body.toString("utf8");
  if (status < 200 || status > 299) {
    const sdk = await loadOpenAISdk();
    const errorJson = safeJson(text);
    throw sdk.APIError.generate(status, errorJson as object | undefined, errorJson ? undefined : text, headersOf(rawHeaders));
  }
  if (status === 204) return null;
  const mediaType = headerValue(rawHeaders, "content-type")?.split(";")[0]?.trim();
  if (mediaType?.includes("application/json") || mediaType?.endsWith("+json")) {
    if (headerValue(rawHeaders, "content-length") === "0") return undefined;
    return JSON.parse(text) as unknown;
  }
  return text;
}

function post(endpoint: ChatEndpoint, body: Buffer, signal: AbortSignal): Promise<RawResponse> {
  const { url } = endpoint;
  const agent = url.protocol === "http:" ? AGENTS["http:"] : url.protocol === "https:" ? AGENTS["https:"] : undefined;
  if (!agent) return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<RawResponse>((resolve, reject) => {
    const request = (url.protocol === "http:" ? http : https).request(url, {
      method: "POST",
      headers: { ...endpoint.headers, "content-length": String(body.length) },
      agent,
    });
    const onAbort = () => request.destroy(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    const fail = (error: Error) => {
      signal.removeEventListener("abort", onAbort);
      reject(error);
    };
    request.once("error", fail);
    request.once("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("error", fail);
      response.once("close", () => {
        if (!response.complete) fail(new Error("the server closed the connection before the whole response"));
      });
      response.once("end", () => {
        signal.removeEventListener("abort", onAbort);
        resolve({ status: response.statusCode ?? 0, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) });
      });
    });
    request.end(body);
  });
}

function headerValue(rawHeaders: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) return rawHeaders[i + 1];
  return undefined;
}

function headersOf(rawHeaders: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) headers.append(rawHeaders[i]!, rawHeaders[i + 1]!);
  return headers;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function abortError(): Error {
  return new DOMException("This operation was aborted", "AbortError");
}
