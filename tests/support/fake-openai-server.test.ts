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
    await expect.poll(() => s.requests.length).toBe(1); // received, and hanging
    expect(s.stats().inFlight).toBe(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    // The server learns of the abort when the connection closes, a moment after the client gave up.
    await expect.poll(() => s.stats().inFlight).toBe(0);
  });

  it("closes promptly with a hung request open", async () => {
    const s = await start({ faults: faultAlways(() => true, { kind: "hang" }) });
    const pending = post(`${s.baseURL}/chat/completions`, "q").catch((error: unknown) => error);
    await expect.poll(() => s.requests.length).toBe(1); // received, and hanging
    const begin = Date.now();
    await s.close();
    expect(Date.now() - begin).toBeLessThan(500);
    expect(await pending).toBeInstanceOf(Error);
  });

  it("plays an agent model on the streamed Responses and Messages APIs: tool calls first, then the answer from their output", async () => {
    const s = await start({ requireApiKey: "k" });
    const events = async (response: Response) => (await response.text()).split("\n").filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    const task = "## Context\n[DOC] [TLE] Eiffel Tower [PAR] A tower.\n\n## Question\nWhich tower?";
    const responses = (input: unknown[]) => fetch(`${s.baseURL}/responses`, {
      method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, tools: [{ type: "function", name: "exec_command" }], input }),
    });
    const first = await events(await responses([{ type: "message", role: "user", content: [{ type: "input_text", text: "Read task.md" }] }]));
    expect(first.map((event) => event.type)).toEqual(["response.created", "response.output_item.added", "response.output_item.done", "response.output_item.added", "response.output_item.done", "response.completed"]);
    expect(first.filter((event) => event.type === "response.output_item.done").map((event) => (event.item as { name: string; arguments: string }).arguments))
      .toEqual(['{"cmd":"cat task.md"}', '{"cmd":"cat .agents/skills/skillopt-target/SKILL.md"}']);
    const second = await events(await responses([{ type: "function_call", call_id: "c", name: "exec_command" }, { type: "function_call_output", call_id: "c", output: task }]));
    const done = second.find((event) => event.type === "response.output_item.done")!.item as { content: { text: string }[] };
    expect(done.content[0]!.text).toBe("Reasoning...\n<answer>Eiffel Tower</answer>");
    expect((second.at(-1)!.response as { usage: { input_tokens: number } }).usage.input_tokens).toBeGreaterThan(0);

    const messages = (body: unknown, key = "k") => fetch(`${s.origin}/v1/messages?beta=true`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
    const tools = [{ name: "Bash" }, { name: "Read" }];
    const call = await events(await messages({ model: "m", stream: true, tools, system: [{ type: "text", text: "Primary working directory: /w" }], messages: [{ role: "user", content: "go" }] }));
    expect(call.map((event) => event.type)).toEqual(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]);
    expect(call.filter((event) => event.type === "content_block_start").map((event) => (event.content_block as { name: string }).name)).toEqual(["Bash", "Read"]);
    expect((call.find((event) => event.type === "content_block_delta")!.delta as { partial_json: string }).partial_json).toContain("cat task.md");
    expect((call.at(-2)!.delta as { stop_reason: string }).stop_reason).toBe("tool_use");
    const answer = await events(await messages({ model: "m", stream: true, tools, messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: task }] }] }));
    expect((answer.find((event) => event.type === "content_block_delta")!.delta as { text: string }).text).toBe("Reasoning...\n<answer>Eiffel Tower</answer>");
    const denied = await messages({ model: "m", messages: [] }, "wrong");
    expect(denied.status).toBe(401);
    expect(await denied.json()).toEqual({ type: "error", error: { type: "authentication_error", message: "Incorrect API key provided." } });
  });
});
