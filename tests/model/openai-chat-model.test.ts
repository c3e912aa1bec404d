// The OpenAI-compatible provider through the real `openai` SDK against the fake server: success and retries.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOpenAIChatModel, ModelCallError, type ChatRequest } from "../../lib/model";
import { faultFirstN, startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { rejectionOf } from "../support/failures";

const TINY_BACKOFF = { baseMs: 2, capMs: 20 };

function qaRequest(question = "Which city is the capital of France? [[ANSWER: Paris]]", extra: Partial<ChatRequest> = {}): ChatRequest {
  return {
    messages: [
      { role: "system", content: "You are an expert question answering agent." },
      { role: "user", content: `## Context\n[DOC] [TLE] Paris [PAR] Paris is the capital of France.\n\n## Question\n${question}` },
    ],
    maxCompletionTokens: 256,
    ...extra,
  };
}


let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.setOptions({ faults: undefined, answer: undefined, latencyMs: 0, requireApiKey: undefined, knownModels: undefined });
  server.resetStats();
});

function model(overrides: Partial<Parameters<typeof createOpenAIChatModel>[0]> = {}) {
  return createOpenAIChatModel({
    baseURL: server.baseURL,
    apiKey: "sk-test-key-0123456789",
    model: "fake-model",
    callTimeoutMs: 2_000,
    maxRetries: 5,
    backoff: TINY_BACKOFF,
    ...overrides,
  });
}

describe("OpenAI-compatible chat model", () => {
  it("returns the answer text, usage and single-attempt stats", async () => {
    const chat = model();
    const response = await chat.complete(qaRequest());
    expect(response.text).toBe("Reasoning...\n<answer>Paris</answer>");
    expect(response.promptTokens).toBeGreaterThan(10);
    expect(response.completionTokens).toBeGreaterThan(0);
    expect(response).toMatchObject({ attempts: 1, retries: 0, rateLimited: 0 });
    expect(chat).toMatchObject({ backend: "openai", model: "fake-model" });

    const sent = server.requests[0]!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.body.max_completion_tokens).toBe(256);
    expect(sent.body).not.toHaveProperty("temperature");
    expect(sent.body).not.toHaveProperty("max_tokens");
    expect(sent.headers.authorization).toBe("[redacted]");
  });

  it("sends temperature only when given", async () => {
    await model().complete(qaRequest(undefined, { temperature: 0 }));
    expect(server.requests[0]!.body.temperature).toBe(0);
  });

  it("maps null content to an empty string and missing usage to zero", async () => {
    const body = JSON.stringify({ id: "x", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, message: { role: "assistant", content: null }, finish_reason: "stop" }] });
    server.setOptions({ faults: faultFirstN(1, { kind: "status", status: 200, body }) });
    const response = await model().complete(qaRequest());
    expect(response).toMatchObject({ text: "", promptTokens: 0, completionTokens: 0, attempts: 1 });
  });

  it("needs no key for a local server", async () => {
    const response = await model({ apiKey: undefined }).complete(qaRequest());
    expect(response.text).toContain("<answer>Paris</answer>");
  });

  it("honours Retry-After on 429 and counts the rate limit", async () => {
    server.setOptions({ faults: faultFirstN(1, { kind: "status", status: 429, retryAfter: "1" }) });
    const scheduled: { delayMs: number; status?: number; rateLimited: boolean }[] = [];
    let started = 0;
    const begin = Date.now();
    const response = await model({ backoff: { baseMs: 2, capMs: 5_000 } }).complete(qaRequest(), {
      onRetryScheduled: (info) => scheduled.push(info),
      onRetryStarted: () => (started += 1),
    });
    expect(Date.now() - begin).toBeGreaterThanOrEqual(950);
    expect(response).toMatchObject({ attempts: 2, retries: 1, rateLimited: 1 });
    expect(scheduled).toEqual([expect.objectContaining({ attempt: 1, delayMs: 1_000, status: 429, rateLimited: true })]);
    expect(started).toBe(1);
    expect(server.stats().byStatus).toEqual({ 200: 1, 429: 1 });
  });

  it("caps a server-requested wait at the backoff cap", async () => {
    server.setOptions({ faults: faultFirstN(1, { kind: "status", status: 503, retryAfter: "60" }) });
    const delays: number[] = [];
    const response = await model().complete(qaRequest(), { onRetryScheduled: (info) => delays.push(info.delayMs) });
    expect(delays).toEqual([TINY_BACKOFF.capMs]);
    expect(response).toMatchObject({ retries: 1, rateLimited: 0 });
  });

  it("retries 500 twice, then succeeds", async () => {
    server.setOptions({ faults: faultFirstN(2, { kind: "status", status: 500 }) });
    const response = await model().complete(qaRequest());
    expect(response).toMatchObject({ attempts: 3, retries: 2, rateLimited: 0 });
    expect(response.text).toContain("<answer>Paris</answer>");
  });

  it("retries 408 and 409 too", async () => {
    server.setOptions({ faults: faultFirstN(1, { kind: "status", status: 408 }) });
    expect(await model().complete(qaRequest("q408"))).toMatchObject({ retries: 1 });
    server.setOptions({ faults: faultFirstN(1, { kind: "status", status: 409 }) });
    expect(await model().complete(qaRequest("q409"))).toMatchObject({ retries: 1 });
  });

  it("throws ModelCallError with stats once retries are exhausted", async () => {
    server.setOptions({ faults: faultFirstN(100, { kind: "status", status: 429 }) });
    const error = await rejectionOf(model({ maxRetries: 3 }).complete(qaRequest()));
    expect(error).toBeInstanceOf(ModelCallError);
    const callError = error as ModelCallError;
    expect(callError.stats).toEqual({ attempts: 4, retries: 3, rateLimited: 4 });
    expect(callError.status).toBe(429);
    expect(callError.message).toMatch(/429 Too Many Requests.*Simulated error 429/);
    expect(server.stats().requests).toBe(4);
  });

  it("does not retry when maxRetries is 0", async () => {
    server.setOptions({ faults: faultFirstN(100, { kind: "status", status: 500 }) });
    const error = await rejectionOf(model({ maxRetries: 0 }).complete(qaRequest()));
    expect((error as ModelCallError).stats).toEqual({ attempts: 1, retries: 0, rateLimited: 0 });
    expect(server.stats().requests).toBe(1);
  });

  it("times out a hung attempt and retries it", async () => {
    server.setOptions({ faults: faultFirstN(1, { kind: "hang" }) });
    const begin = Date.now();
    const response = await model({ callTimeoutMs: 150 }).complete(qaRequest());
    expect(Date.now() - begin).toBeLessThan(5_000); // the hung attempt never answers
    expect(response).toMatchObject({ attempts: 2, retries: 1 });
  });

  it("reports the per-attempt timeout when a hang exhausts the retries", async () => {
    server.setOptions({ faults: faultFirstN(100, { kind: "hang" }) });
    const error = await rejectionOf(model({ callTimeoutMs: 100, maxRetries: 1 }).complete(qaRequest()));
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.message).toMatch(/within 100 ms/);
    expect((error as ModelCallError).stats.attempts).toBe(2);
  });

  it.each([
    ["malformed JSON", { kind: "malformed" } as const],
    ["an HTML body", { kind: "malformed", contentType: "text/html" } as const],
    ["empty choices", { kind: "empty-choices" } as const],
    ["a connection reset", { kind: "reset" } as const],
  ])("retries after %s", async (_label, fault) => {
    server.setOptions({ faults: faultFirstN(1, fault) });
    const response = await model().complete(qaRequest());
    expect(response).toMatchObject({ attempts: 2, retries: 1, rateLimited: 0 });
    expect(response.text).toContain("<answer>Paris</answer>");
  });

  it.each([
    ["malformed", { kind: "malformed", contentType: "text/html" } as const, /malformed response.*not JSON/],
    ["empty-choices", { kind: "empty-choices" } as const, /no choices\[0\]\.message/],
    ["reset", { kind: "reset" } as const, /could not reach the model server/],
  ])("describes %s in the final error", async (_label, fault, message) => {
    server.setOptions({ faults: faultFirstN(100, fault) });
    const error = await rejectionOf(model({ maxRetries: 0 }).complete(qaRequest()));
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.message).toMatch(message);
  });
});
