/**
 * A small OpenAI-compatible chat server for tests and benchmarks (Node `http`, no framework).
 *
 * Routes: POST /v1/chat/completions, and the Azure form
 * POST /openai/deployments/<deployment>/chat/completions?api-version=… (the deployment is the model);
 * for coding agents, the streamed POST /v1/responses (Codex CLI) and POST /v1/messages (Claude Code), whose
 * scripted model reads task.md and SKILL.md with the agent's tools and then answers (fake-agent-protocols.ts).
 *
 * Default answer: the "question" of a request is the first non-empty line after `## Question` in the
 * last user message (the whole message if it has no such heading). The reply is
 * `Reasoning...\n<answer>X</answer>` where X is the text of an `[[ANSWER: X]]` marker in the question,
 * else the first `[TLE]` title of the context, else "unknown". Usage counts ~ characters / 4.
 *
 * Faults are chosen per request by a FaultPlan (see the helpers below), so a test can script e.g.
 * "429 on the first attempt of every item", "hang on question 3", a seeded random mix (faultAtRandom), or hold answers
 * until the test lets them through (`hold`; tests/support/rollout-fixtures.ts has `itemGate` for makeItems() items).
 */

import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { anthropicError, messagesRequest, responsesRequest, scriptedTurn, streamMessages, streamResponses, type AgentRequest } from "./fake-agent-protocols";

export type Fault =
  | { kind: "status"; status: number; retryAfter?: string; body?: string }
  /** Never responds; the request ends only when the client aborts or the server closes. */
  | { kind: "hang" }
  /** 200 with a body that is not JSON (sent as application/json unless contentType says otherwise). */
  | { kind: "malformed"; contentType?: string }
  | { kind: "empty-choices" }
  /** Destroys the socket without a response. */
  | { kind: "reset" }
  /** 200 with headers announcing a whole body, half of it, then the connection drops. */
  | { kind: "cut" }
  /** Waits, then answers normally. */
  | { kind: "delay"; ms: number }
  /** Answers normally once `until` settles; the call stays in flight meanwhile (until the client aborts it). */
  | { kind: "hold"; until: Promise<unknown> };

export interface FaultContext {
  /** 0-based index of the request since start (or the last resetStats). */
  requestIndex: number;
  /** 1-based count of requests seen so far for this question text, this one included. */
  attemptForQuestion: number;
  question: string;
  model: string;
}

export interface FaultPlan {
  /** Decide per request: return a fault, or undefined to answer normally. */
  pick(ctx: FaultContext): Fault | undefined;
}

/** A parsed JSON request body. */
export type JsonObject = Record<string, unknown>;

export interface FakeChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  body: JsonObject;
}

export interface FakeServerOptions {
  /** Added before every response (not to hangs or resets). */
  latencyMs?: number;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Keep every request in `requests` (default true); a long benchmark turns it off to stay flat in memory. */
  recordRequests?: boolean;
  answer?: (req: FakeChatRequest) => string | Promise<string>;
  faults?: FaultPlan;
  /** When set, a request without exactly this key (Bearer token or Azure `api-key`) gets 401. */
  requireApiKey?: string;
  /** When set, other models get 404 model_not_found. */
  knownModels?: string[];
}

export interface RecordedRequest {
  path: string;
  model: string;
  messages: { role: string; content: string }[];
  body: JsonObject;
  /** Lower-cased header names; `authorization`, `api-key` and `x-api-key` values are replaced by "[redacted]". */
  headers: Record<string, string>;
  question: string;
  attemptForQuestion: number;
  /** The fault applied, if any. */
  fault?: Fault["kind"];
  receivedAt: number;
}

export interface FakeServerStats {
  requests: number;
  inFlight: number;
  maxInFlight: number;
  byStatus: Record<number, number>;
}

export interface FakeOpenAIServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseURL: string;
  /** e.g. http://127.0.0.1:PORT, for the Azure client's `endpoint`. */
  origin: string;
  close(): Promise<void>;
  stats(): FakeServerStats;
  requests: RecordedRequest[];
  setOptions(partial: Partial<FakeServerOptions>): void;
  resetStats(): void;
}

export { combineFaults, faultAlways, faultAtRandom, faultFirstN, faultOnce, faultSequence, type QuestionMatcher } from "./fake-server-faults";

/** First non-empty line after `## Question` in the last user message. */
export function questionOf(messages: { role: string; content: string }[]): string {
  const lastUser = [...messages].reverse().find((message) => message.role === "user")?.content ?? "";
  const lines = lastUser.split(/\r?\n/);
  const heading = lines.findIndex((line) => /^##\s+Question\s*$/i.test(line));
  if (heading < 0) return lastUser.trim();
  return lines.slice(heading + 1).find((line) => line.trim() !== "")?.trim() ?? "";
}

export function defaultAnswer(req: FakeChatRequest): string {
  const question = questionOf(req.messages);
  const marked = /\[\[ANSWER:\s*([^\]]*?)\s*\]\]/.exec(question)?.[1];
  const lastUser = [...req.messages].reverse().find((message) => message.role === "user")?.content ?? "";
  const title = /\[TLE\]\s*(.*?)\s*(?:\[PAR\]|\[DOC\]|\n|$)/.exec(lastUser)?.[1];
  return `Reasoning...\n<answer>${marked ?? (title || "unknown")}</answer>`;
}

const CHAT_ROUTE = /^\/v1\/chat\/completions$/;
const AZURE_CHAT_ROUTE = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;
const AGENT_ROUTES: Record<string, AgentRequest["protocol"]> = { "/v1/responses": "responses", "/v1/messages": "messages" };

export async function startFakeOpenAIServer(initial: FakeServerOptions = {}): Promise<FakeOpenAIServer> {
  let options: FakeServerOptions = { ...initial };
  let requestCount = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let byStatus: Record<number, number> = {};
  let attemptsByQuestion = new Map<string, number>();
  const recorded: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const send = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    if (res.destroyed || res.writableEnded) return;
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(body);
  };
  const sendError = (res: http.ServerResponse, status: number, message: string, code: string | null, extra: Record<string, string> = {}) =>
    send(res, status, JSON.stringify({ error: { message, type: status >= 500 ? "server_error" : "invalid_request_error", param: null, code } }), extra);

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, rawBody: string): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    // Claude Code checks that its base URL answers before its first request.
    if ((req.method === "HEAD" || req.method === "GET") && url.pathname === "/") return send(res, 200, "{}");
    const azure = AZURE_CHAT_ROUTE.exec(url.pathname);
    const protocol = AGENT_ROUTES[url.pathname];
    const fail = protocol === "messages"
      ? (status: number, message: string, _code: string | null, extra: Record<string, string> = {}) => send(res, status, anthropicError(status, message), extra)
      : (status: number, message: string, code: string | null, extra: Record<string, string> = {}) => sendError(res, status, message, code, extra);
    if (req.method !== "POST" || !(azure || protocol || CHAT_ROUTE.test(url.pathname))) {
      return fail(404, `No route for ${req.method} ${url.pathname}`, "not_found");
    }
    const body = parseJsonObject(rawBody);
    if (!body) return fail(400, "Request body is not a JSON object", null);
    const model = azure?.[1] ? decodeURIComponent(azure[1]) : String(body.model ?? "");
    const agentRequest = protocol === "responses" ? responsesRequest(body) : protocol === "messages" ? messagesRequest(body) : undefined;
    // An agent's conversation: what the model has seen is the tool outputs (task.md holds the question).
    const messages = agentRequest ? [{ role: "user", content: agentRequest.toolOutputs.join("\n") }] : Array.isArray(body.messages) ? body.messages.map(toMessage) : [];
    const question = questionOf(messages);
    const attemptForQuestion = (attemptsByQuestion.get(question) ?? 0) + 1;
    attemptsByQuestion.set(question, attemptForQuestion);
    const requestIndex = requestCount++;
    const presentedKey = bearerToken(req.headers.authorization) ?? headerValue(req.headers["api-key"]) ?? headerValue(req.headers["x-api-key"]);

    const fault = options.faults?.pick({ requestIndex, attemptForQuestion, question, model });
    if (options.recordRequests !== false) recorded.push({
      path: url.pathname, model, messages, body, headers: redactedHeaders(req.headers), question, attemptForQuestion,
      ...(fault ? { fault: fault.kind } : {}), receivedAt: Date.now(),
    });

    if (fault?.kind === "hang") return; // the socket stays open until the client gives up or we close
    if (fault?.kind === "reset") {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "hold") await fault.until.catch(() => undefined);
    await wait(options.latencyMs ?? 0);
    if (options.requireApiKey !== undefined && presentedKey !== options.requireApiKey) {
      return fail(401, "Incorrect API key provided.", "invalid_api_key");
    }
    if (options.knownModels && !options.knownModels.includes(model)) {
      return fail(404, `The model \`${model}\` does not exist or you do not have access to it.`, "model_not_found");
    }
    if (fault?.kind === "status") {
      const headers: Record<string, string> = fault.retryAfter !== undefined ? { "retry-after": fault.retryAfter } : {};
      if (fault.body !== undefined) return send(res, fault.status, fault.body, headers);
      return fail(fault.status, `Simulated error ${fault.status}`, null, headers);
    }
    if (fault?.kind === "malformed") {
      return send(res, 200, "<html>upstream proxy error {not json", { "content-type": fault.contentType ?? "application/json" });
    }
    if (fault?.kind === "delay") await wait(fault.ms);
    if (fault?.kind === "cut") {
      const body = JSON.stringify({ id: `chatcmpl-fake-${requestIndex}`, object: "chat.completion", choices: [] });
      byStatus[200] = (byStatus[200] ?? 0) + 1;
      res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
      res.write(body.slice(0, body.length >> 1), () => req.socket.destroy());
      return;
    }
    if (agentRequest) {
      const turn = await scriptedTurn(agentRequest, options.answer ?? defaultAnswer);
      byStatus[200] = (byStatus[200] ?? 0) + 1;
      const stream = agentRequest.protocol === "responses" ? streamResponses : streamMessages;
      return stream(res, turn, { id: String(requestIndex), model, promptChars: rawBody.length });
    }

    const content = fault?.kind === "empty-choices" ? "" : await (options.answer ?? defaultAnswer)({ model, messages, body });
    const promptChars = messages.reduce((sum, message) => sum + message.content.length, 0);
    send(res, 200, JSON.stringify({
      id: `chatcmpl-fake-${requestIndex}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: fault?.kind === "empty-choices" ? [] : [
        { index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: "stop" },
      ],
      usage: {
        prompt_tokens: Math.ceil(promptChars / 4),
        completion_tokens: Math.ceil(content.length / 4),
        total_tokens: Math.ceil(promptChars / 4) + Math.ceil(content.length / 4),
      },
    }));
  }

  const server = http.createServer((req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let finished = false;
    res.on("close", () => {
      if (!finished) inFlight -= 1;
      finished = true;
    });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (closed) return;
      handle(req, res, Buffer.concat(chunks).toString("utf8")).catch((error: unknown) => {
        sendError(res, 500, `Fake server answer failed: ${error instanceof Error ? error.message : String(error)}`, null);
      });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(initial.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    baseURL: `${origin}/v1`,
    origin,
    requests: recorded,
    stats: () => ({ requests: requestCount, inFlight, maxInFlight, byStatus: { ...byStatus } }),
    setOptions(partial) {
      options = { ...options, ...partial };
    },
    resetStats() {
      requestCount = 0;
      maxInFlight = inFlight;
      byStatus = {};
      attemptsByQuestion = new Map();
      recorded.length = 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Hung requests would keep close() waiting forever: end every connection now.
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await stopped;
    },
  };
}

function parseJsonObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

function toMessage(raw: unknown): { role: string; content: string } {
  const message = (typeof raw === "object" && raw !== null ? raw : {}) as { role?: unknown; content?: unknown };
  return {
    role: String(message.role),
    content: typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? ""),
  };
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  return match?.[1];
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function redactedHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name] = name === "authorization" || name === "api-key" || name === "x-api-key" ? "[redacted]" : Array.isArray(value) ? value.join(", ") : value;
  }
  return result;
}
