// The OpenAI-compatible provider: errors that stop a run, aborts, and the Azure client path.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAzureChatModel, createOpenAIChatModel, FatalModelError, type ChatRequest } from "../../lib/model";
import { faultAlways, faultFirstN, startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { rejectionOf } from "../support/failures";

const SECRET = "sk-live-secret-key-ABCDEF123456";
const TINY_BACKOFF = { baseMs: 2, capMs: 20 };

function qaRequest(extra: Partial<ChatRequest> = {}): ChatRequest {
  return {
    messages: [{ role: "user", content: "## Context\n[DOC] [TLE] Paris [PAR] Paris is the capital of France.\n\n## Question\nCapital of France?" }],
    maxCompletionTokens: 64,
    ...extra,
  };
}


let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.setOptions({ faults: undefined, requireApiKey: undefined, knownModels: undefined });
  server.resetStats();
});

function model(overrides: Partial<Parameters<typeof createOpenAIChatModel>[0]> = {}) {
  return createOpenAIChatModel({
    baseURL: server.baseURL,
    apiKey: SECRET,
    model: "fake-model",
    callTimeoutMs: 5_000,
    maxRetries: 5,
    backoff: TINY_BACKOFF,
    ...overrides,
  });
}

describe("errors that stop a run", () => {
  it("fails fast on a wrong key without retrying or revealing the key", async () => {
    server.setOptions({ requireApiKey: "sk-the-right-key" });
    const error = await rejectionOf(model().complete(qaRequest()));
    expect(error).toBeInstanceOf(FatalModelError);
    const fatal = error as FatalModelError;
    expect(fatal.status).toBe(401);
    expect(fatal.stats).toEqual({ attempts: 1, retries: 0, rateLimited: 0 });
    expect(fatal.message).toMatch(/rejected the request \(401 Unauthorized\): Incorrect API key provided/);
    expect(fatal.message).toContain("OPENAI_API_KEY");
    expect(fatal.message).not.toContain(SECRET);
    expect(JSON.stringify(fatal)).not.toContain(SECRET);
    expect(server.stats().requests).toBe(1);
  });

  it("redacts the key if a server echoes it back", async () => {
    const body = JSON.stringify({ error: { message: `key ${SECRET} is revoked` } });
    server.setOptions({ faults: faultAlways(() => true, { kind: "status", status: 403, body }) });
    const error = await rejectionOf(model().complete(qaRequest()));
    expect(error.message).toContain("key [redacted] is revoked");
    expect(error.message).not.toContain(SECRET);
  });

  it("names the model on 404 model_not_found", async () => {
    server.setOptions({ knownModels: ["gpt-real"] });
    const error = await rejectionOf(model({ model: "gpt-typo" }).complete(qaRequest()));
    expect(error).toBeInstanceOf(FatalModelError);
    expect((error as FatalModelError).status).toBe(404);
    expect((error as FatalModelError).code).toBe("model_not_found");
    expect(error.message).toMatch(/404 Not Found.*gpt-typo.*may be wrong/);
  });

  it.each([400, 403, 413, 422])("does not retry %i", async (status) => {
    server.setOptions({ faults: faultAlways(() => true, { kind: "status", status }) });
    const error = await rejectionOf(model().complete(qaRequest()));
    expect(error).toBeInstanceOf(FatalModelError);
    expect((error as FatalModelError).status).toBe(status);
    expect(server.stats().requests).toBe(1);
  });
});

describe("aborts", () => {
  it("stops a hung request at once and sends nothing more", async () => {
    server.setOptions({ faults: faultAlways(() => true, { kind: "hang" }) });
    const controller = new AbortController();
    const begin = Date.now();
    const call = rejectionOf(model({ callTimeoutMs: 10_000 }).complete(qaRequest({ signal: controller.signal })));
    await expect.poll(() => server.requests.length).toBe(1); // the request hangs at the server
    controller.abort(new Error("run cancelled"));
    const error = await call;
    expect(error.name).toBe("AbortError");
    expect(Date.now() - begin).toBeLessThan(3_000); // the call would hang for 10 s
    // The hung request's connection is closed (the server sees it end), and the call has settled: the retry loop is
    // the only thing that sends (the SDK's own retries are off), so nothing more can be sent.
    await expect.poll(() => server.stats().inFlight).toBe(0);
    expect(server.stats().requests).toBe(1);
  });

  it("cuts a backoff sleep short and pairs the observer callbacks", async () => {
    server.setOptions({ faults: faultAlways(() => true, { kind: "status", status: 503, retryAfter: "5" }) });
    const controller = new AbortController();
    const events: string[] = [];
    const begin = Date.now();
    const error = await rejectionOf(
      model({ backoff: { baseMs: 5_000, capMs: 5_000 } }).complete(qaRequest({ signal: controller.signal }), {
        onRetryScheduled: (info) => {
          events.push(`scheduled ${info.delayMs}`);
          // Right after this callback the backoff sleep begins; the abort lands in it.
          queueMicrotask(() => controller.abort());
        },
        onRetryStarted: () => events.push("started"),
      }),
    );
    expect(error.name).toBe("AbortError");
    expect(Date.now() - begin).toBeLessThan(3_000); // the backoff alone is 5 s
    expect(events).toEqual(["scheduled 5000", "started"]);
    // The call has settled with its one request answered (503): the retry loop, the only thing that sends, is over.
    expect(server.stats().requests).toBe(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const error = await rejectionOf(model().complete(qaRequest({ signal: AbortSignal.abort() })));
    expect(error.name).toBe("AbortError");
    expect(server.stats().requests).toBe(0);
  });
});

describe("Azure OpenAI", () => {
  function azureModel(deployment = "my-deployment") {
    return createAzureChatModel({
      endpoint: server.origin,
      apiKey: SECRET,
      deployment,
      apiVersion: "2024-10-21",
      callTimeoutMs: 2_000,
      maxRetries: 2,
      backoff: TINY_BACKOFF,
    });
  }

  it("calls the deployment route with the api-key header", async () => {
    server.setOptions({ requireApiKey: SECRET });
    const chat = azureModel();
    const response = await chat.complete(qaRequest());
    expect(chat).toMatchObject({ backend: "azure", model: "my-deployment" });
    expect(response.text).toContain("<answer>Paris</answer>");
    const sent = server.requests[0]!;
    expect(sent.path).toBe("/openai/deployments/my-deployment/chat/completions");
    expect(sent.model).toBe("my-deployment");
    expect(sent.headers["api-key"]).toBe("[redacted]");
  });

  it("retries on the Azure route too, and names the deployment on 404", async () => {
    server.setOptions({ faults: faultFirstN(1, { kind: "status", status: 500 }) });
    expect(await azureModel().complete(qaRequest())).toMatchObject({ retries: 1 });
    server.setOptions({ faults: undefined, knownModels: ["other"] });
    const error = await rejectionOf(azureModel("typo-deploy").complete(qaRequest()));
    expect(error).toBeInstanceOf(FatalModelError);
    expect(error.message).toMatch(/Azure OpenAI.*404.*"typo-deploy".*AZURE_OPENAI_DEPLOYMENT/);
  });
});

describe("factory validation", () => {
  it("rejects an invalid base URL without echoing it", () => {
    expect(() => model({ baseURL: "not a url user:pw" })).toThrow(/not a valid URL/);
    try {
      model({ baseURL: "not a url user:pw" });
    } catch (error) {
      expect((error as Error).message).not.toContain("pw");
    }
  });

  it("needs a key for the OpenAI API itself", () => {
    expect(() => createOpenAIChatModel({ model: "gpt-4o-mini", callTimeoutMs: 1_000 })).toThrow(/OPENAI_API_KEY/);
  });
});
