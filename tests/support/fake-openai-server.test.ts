// The fake OpenAI-compatible server itself, over plain fetch: answers, routes, auth, faults, accounting, close.
import { afterEach, describe, expect, it } from "vitest";
import {
  combineFaults,
  faultAlways,
  faultAtRandom,
  faultFirstN,
  faultOnce,
  faultSequence,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeServerOptions,
} from "./fake-openai-server";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options?: FakeServerOptions): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer(options);
  return server;
}

const userContent = (question: string, context = "[DOC] [TLE] Eiffel Tower [PAR] A tower in Paris. [DOC] [TLE] Louvre [PAR] A museum.") =>
  `## Context\n${context}\n\n## Question\n${question}`;

function post(url: string, question: string, init: { headers?: Record<string, string>; model?: string; signal?: AbortSignal } = {}) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer k", ...init.headers },
    body: JSON.stringify({ model: init.model ?? "m", messages: [{ role: "user", content: userContent(question) }] }),
    signal: init.signal,
  });
}

describe("fake OpenAI server: a seeded mix of faults", () => {
  it("picks faults at the given rates, the same ones for the same seed", async () => {
    const plan = () => faultAtRandom(7, [{ rate: 0.2, fault: { kind: "status", status: 429, retryAfter: "1" } }, { rate: 0.1, fault: { kind: "hang" } }]);
    const context = { requestIndex: 0, attemptForQuestion: 1, question: "q", model: "m" };
    const [first, second] = [plan(), plan()];
    const picks = Array.from({ length: 5000 }, () => first.pick(context)?.kind ?? "none");
    expect(Array.from({ length: 5000 }, () => second.pick(context)?.kind ?? "none")).toEqual(picks);
    const share = (kind: string) => picks.filter((pick) => pick === kind).length / picks.length;
    expect(share("status")).toBeCloseTo(0.2, 1);
    expect(share("hang")).toBeCloseTo(0.1, 1);
    expect(share("none")).toBeCloseTo(0.7, 1);
  });

  it("cuts a response off in the middle of its body", async () => {
    const s = await start({ faults: faultAlways("cut me", { kind: "cut" }) });
    const response = await post(`${s.baseURL}/chat/completions`, "cut me");
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });
});

describe("fake OpenAI server", () => {
  it("answers from an ANSWER marker, else the first title, with usage", async () => {
    const s = await start();
    expect(s.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const marked = await (await post(`${s.baseURL}/chat/completions`, "Where? [[ANSWER: Paris]]")).json();
    expect(marked.object).toBe("chat.completion");
    expect(marked.choices[0].message.content).toBe("Reasoning...\n<answer>Paris</answer>");
    expect(marked.usage.prompt_tokens).toBeGreaterThan(10);
    expect(marked.usage.completion_tokens).toBe(Math.ceil("Reasoning...\n<answer>Paris</answer>".length / 4));
    const titled = await (await post(`${s.baseURL}/chat/completions`, "Which tower?")).json();
    expect(titled.choices[0].message.content).toBe("Reasoning...\n<answer>Eiffel Tower</answer>");
  });

  it("serves the Azure deployment route and uses a custom answer", async () => {
    const s = await start({ answer: async (req) => `model=${req.model}` });
    const response = await post(`${s.origin}/openai/deployments/dep-1/chat/completions?api-version=2024-10-21`, "q", { headers: { "api-key": "azure-key" } });
    expect((await response.json()).choices[0].message.content).toBe("model=dep-1");
    expect(s.requests[0]).toMatchObject({ path: "/openai/deployments/dep-1/chat/completions", model: "dep-1", question: "q" });
    expect(s.requests[0]!.headers["api-key"]).toBe("[redacted]");
    expect(s.requests[0]!.headers.authorization).toBe("[redacted]");
    expect((await fetch(`${s.origin}/v1/models`)).status).toBe(404);
  });

  it("checks the key and the model when asked to", async () => {
    const s = await start({ requireApiKey: "good", knownModels: ["known"] });
    expect((await post(`${s.baseURL}/chat/completions`, "q", { headers: { authorization: "Bearer bad" } })).status).toBe(401);
    const missing = await post(`${s.baseURL}/chat/completions`, "q", { headers: { authorization: "Bearer good" }, model: "other" });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("model_not_found");
    expect((await post(`${s.baseURL}/chat/completions`, "q", { headers: { authorization: "Bearer good" }, model: "known" })).status).toBe(200);
    expect(s.stats().byStatus).toEqual({ 200: 1, 401: 1, 404: 1 });
  });

  it("scripts faults per question and attempt", async () => {
    const s = await start({
      faults: combineFaults(
        faultOnce("flaky", { kind: "status", status: 503, retryAfter: "2" }),
        faultFirstN(2, { kind: "status", status: 500 }, /twice/),
        faultAlways((q) => q.startsWith("broken"), { kind: "empty-choices" }),
      ),
    });
    const url = `${s.baseURL}/chat/completions`;
    const first = await post(url, "flaky one");
    expect([first.status, first.headers.get("retry-after")]).toEqual([503, "2"]);
    expect((await post(url, "flaky one")).status).toBe(200);
    expect((await post(url, "fails twice")).status).toBe(500);
    expect((await post(url, "fails twice")).status).toBe(500);
    expect((await post(url, "fails twice")).status).toBe(200);
    expect((await (await post(url, "broken")).json()).choices).toEqual([]);
    expect(s.requests.map((r) => r.attemptForQuestion)).toEqual([1, 2, 1, 2, 3, 1]);
    expect(s.requests.map((r) => r.fault)).toEqual(["status", undefined, "status", "status", undefined, "empty-choices"]);
  });

  it("sends malformed bodies, resets connections and delays", async () => {
    const s = await start({ faults: faultSequence([{ kind: "malformed" }, { kind: "reset" }, { kind: "delay", ms: 80 }]) });
    const url = `${s.baseURL}/chat/completions`;
    const malformed = await post(url, "q");
    expect(malformed.status).toBe(200);
    await expect(malformed.json()).rejects.toThrow();
    await expect(post(url, "q")).rejects.toThrow();
    const begin = Date.now();
    expect((await post(url, "q")).status).toBe(200);
    expect(Date.now() - begin).toBeGreaterThanOrEqual(70);
  });

  it("tracks requests in flight", async () => {
    const s = await start({ latencyMs: 60 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => post(`${s.baseURL}/chat/completions`, `q${i}`).then((r) => r.json())));
    expect(s.stats()).toMatchObject({ requests: 5, inFlight: 0, maxInFlight: 5 });
    s.resetStats();
    expect(s.stats()).toEqual({ requests: 0, inFlight: 0, maxInFlight: 0, byStatus: {} });
    expect(s.requests).toHaveLength(0);
  });

  it("releases a hung request when the client aborts", async () => {
    const s = await start({ faults: faultAlways(() => true, { kind: "hang" }) });
    const controller = new AbortController();
    const pending = post(`${s.baseURL}/chat/completions`, "q", { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(s.stats().inFlight).toBe(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(s.stats().inFlight).toBe(0);
  });

  it("closes promptly with a hung request open", async () => {
    const s = await start({ faults: faultAlways(() => true, { kind: "hang" }) });
    const pending = post(`${s.baseURL}/chat/completions`, "q").catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const begin = Date.now();
    await s.close();
    expect(Date.now() - begin).toBeLessThan(500);
    expect(await pending).toBeInstanceOf(Error);
  });
});
