/**
 * A small OpenAI-compatible chat server for tests and benchmarks (Node `http`, no framework).
 *
 * Routes: POST /v1/chat/completions, and the Azure form
 * POST /openai/deployments/<deployment>/chat/completions?api-version=… (the deployment is the model).
 *
 * Default answer: the "question" of a request is the first non-empty line after `## Question` in the
 * last user message (the whole message if it has no such heading). The reply is
 * `Reasoning...\n<answer>X</answer>` where X is the text of an `[[ANSWER: X]]` marker in the question,
 * else the first `[TLE]` title of the context, else "unknown". Usage counts ~ characters / 4.
 *
 * Faults are chosen per request by a FaultPlan (see the helpers below), so a test can script e.g.
 * "429 on the first attempt of every item", "hang on question 3", or a seeded random mix (faultAtRandom).
 */

import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { seededRandom } from "../../lib/stats/random";

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
  | { kind: "delay"; ms: number };

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
  /** Lower-cased header names; `authorization` and `api-key` values are replaced by "[redacted]". */
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

export type QuestionMatcher = string | RegExp | ((question: string) => boolean);

function matches(matcher: QuestionMatcher, question: string): boolean {
  if (typeof matcher === "string") return question.includes(matcher);
  if (matcher instanceof RegExp) return matcher.test(question);
  return matcher(question);
}

/** The fault on the first attempt of every matching question; later attempts succeed. */
export function faultOnce(matcher: QuestionMatcher, fault: Fault): FaultPlan {
  return { pick: (ctx) => (ctx.attemptForQuestion === 1 && matches(matcher, ctx.question) ? fault : undefined) };
}

/** The fault on every attempt of every matching question. */
export function faultAlways(matcher: QuestionMatcher, fault: Fault): FaultPlan {
  return { pick: (ctx) => (matches(matcher, ctx.question) ? fault : undefined) };
}

/** The fault on the first `n` attempts of each (matching) question. */
export function faultFirstN(n: number, fault: Fault, matcher: QuestionMatcher = () => true): FaultPlan {
  return { pick: (ctx) => (ctx.attemptForQuestion <= n && matches(matcher, ctx.question) ? fault : undefined) };
}

/** faults[i] for request i (by arrival order); undefined or past the end answers normally. */
export function faultSequence(faults: (Fault | undefined)[]): FaultPlan {
  return { pick: (ctx) => faults[ctx.requestIndex] };
}

/**
 * A seeded random mix, for soak tests: each request gets `fault` with probability `rate` (rates add up to at most 1),
 * else answers normally. The same seed gives the same sequence of picks.
 */
export function faultAtRandom(seed: number, faults: { rate: number; fault: Fault }[]): FaultPlan {
  const random = seededRandom(seed);
  return {
    pick: () => {
      let roll = random();
      for (const { rate, fault } of faults) {
        if (roll < rate) return fault;
        roll -= rate;
      }
      return undefined;
    },
  };
}

/** The first plan that picks a fault wins. */
export function combineFaults(...plans: FaultPlan[]): FaultPlan {
  return { pick: (ctx) => plans.map((plan) => plan.pick(ctx)).find((fault) => fault !== undefined) };
}

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
    const azure = AZURE_CHAT_ROUTE.exec(url.pathname);
    if (req.method !== "POST" || !(azure || CHAT_ROUTE.test(url.pathname))) {
      return sendError(res, 404, `No route for ${req.method} ${url.pathname}`, "not_found");
    }
    const body = parseJsonObject(rawBody);
    if (!body) return sendError(res, 400, "Request body is not a JSON object", null);
    const model = azure?.[1] ? decodeURIComponent(azure[1]) : String(body.model ?? "");
    const messages = Array.isArray(body.messages) ? body.messages.map(toMessage) : [];
    const question = questionOf(messages);
    const attemptForQuestion = (attemptsByQuestion.get(question) ?? 0) + 1;
    attemptsByQuestion.set(question, attemptForQuestion);
    const requestIndex = requestCount++;
    const presentedKey = bearerToken(req.headers.authorization) ?? headerValue(req.headers["api-key"]);

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
    await wait(options.latencyMs ?? 0);
    if (options.requireApiKey !== undefined && presentedKey !== options.requireApiKey) {
      return sendError(res, 401, "Incorrect API key provided.", "invalid_api_key");
    }
    if (options.knownModels && !options.knownModels.includes(model)) {
      return sendError(res, 404, `The model \`${model}\` does not exist or you do not have access to it.`, "model_not_found");
    }
    if (fault?.kind === "status") {
      const headers: Record<string, string> = fault.retryAfter !== undefined ? { "retry-after": fault.retryAfter } : {};
      if (fault.body !== undefined) return send(res, fault.status, fault.body, headers);
      return sendError(res, fault.status, `Simulated error ${fault.status}`, null, headers);
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
    result[name] = name === "authorization" || name === "api-key" ? "[redacted]" : Array.isArray(value) ? value.join(", ") : value;
  }
  return result;
}
