// The executor end to end: SQLite through Prisma, the real openai client, and our fake
// OpenAI-compatible server on 127.0.0.1 with controllable latency and faults.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getItemConversation, getRun, requestCancel } from "@/lib/db";
import { executeRun } from "@/lib/rollout";
import { faultAlways, faultFirstN, startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { createStoredRun, fastModel, itemGate, makeItems, storedResults } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;

beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer({ latencyMs: 5 });
});
afterEach(async () => {
  await server.close();
  await t.close();
});

describe("executeRun", () => {
  it("runs every item once, scores it, and keeps the run's counters equal to its rows", async () => {
    const items = makeItems(30, (i) => i % 3 === 0);
    const run = await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { concurrency: 6 } });
    const done = await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });

    expect(done.status).toBe("completed");
    const rows = await storedResults(t.db, run.id);
    expect(rows.map((r) => r.itemId).sort()).toEqual(items.map((i) => i.id).sort());
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(rows.filter((r) => r.status === "correct")).toHaveLength(20);
    expect(rows.filter((r) => r.status === "wrong")).toHaveLength(10);
    expect(done.nDone).toBe(30);
    expect(done.emSum).toBe(rows.reduce((sum, r) => sum + r.em, 0));
    expect(done.f1Sum).toBeCloseTo(rows.reduce((sum, r) => sum + r.f1, 0), 10);
    expect(done.promptTokens).toBe(rows.reduce((sum, r) => sum + r.promptTokens, 0));
    expect(done.promptTokens).toBeGreaterThan(0);

    const wrong = rows.find((r) => r.itemId === "q0003")!;
    expect(wrong.failReason).toBe("EM=0: predicted 'Answer 3' but expected ['Something else 3']");
    expect(wrong.agentOk).toBe(true);
    expect(wrong.nTurns).toBe(1);

    const conversation = await getItemConversation(t.db, run.id, "q0003");
    expect(conversation!.userPrompt).toContain("## Question\nWhich title belongs to clue number 3?");
    expect(conversation!.conversation[0]).toEqual({ type: "message", turn: 1, content: wrong.response });
    expect(conversation!.conversation[1]).toMatchObject({ role: "system" });
    expect((conversation!.conversation[1] as { content: string }).content).toMatch(/^\[EVALUATION RESULT\]\nQuestion: /);
  });

  it("never has more calls in flight than the concurrency bound, and uses all of it", async () => {
    server.setOptions({ latencyMs: 40 });
    const run = await createStoredRun(t.db, { items: makeItems(40), baseURL: server.baseURL, settings: { concurrency: 7 } });
    await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    expect(server.stats().maxInFlight).toBe(7);
    expect(server.stats().requests).toBe(40);
  });

  it("retries 429 (honouring Retry-After) and 500, and counts them per item", async () => {
    server.setOptions({
      faults: {
        pick: (ctx) =>
          ctx.question.includes("number 1?") && ctx.attemptForQuestion === 1 ? { kind: "status", status: 429, retryAfter: "0" }
          : ctx.question.includes("number 2?") && ctx.attemptForQuestion <= 2 ? { kind: "status", status: 500 }
          : undefined,
      },
    });
    const run = await createStoredRun(t.db, { items: makeItems(4), baseURL: server.baseURL });
    const done = await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    const byId = new Map((await storedResults(t.db, run.id)).map((r) => [r.itemId, r]));
    expect(byId.get("q0001")).toMatchObject({ status: "correct", retries: 1, rateLimited: 1, attempts: 2 });
    expect(byId.get("q0002")).toMatchObject({ status: "correct", retries: 2, rateLimited: 0, attempts: 3 });
    expect(byId.get("q0000")).toMatchObject({ retries: 0, attempts: 1 });
    expect(done).toMatchObject({ retries: 3, rateLimited: 1, nErrors: 0 });
  });

  it("records an item whose retries run out as the seed's error row and goes on", async () => {
    server.setOptions({ faults: faultAlways("number 2?", { kind: "status", status: 503 }) });
    const run = await createStoredRun(t.db, { items: makeItems(5), baseURL: server.baseURL, settings: { maxRetries: 2 } });
    const done = await executeRun(t.db, run.id, { model: fastModel(server.baseURL, { maxRetries: 2 }) });
    expect(done.status).toBe("completed");
    expect(done.nErrors).toBe(1);
    const failed = (await storedResults(t.db, run.id)).find((r) => r.itemId === "q0002")!;
    expect(failed).toMatchObject({ status: "error", agentOk: false, attempts: 3, retries: 2, nTurns: 0, response: "", phase: null });
    expect(failed.failReason).toMatch(/^error: /);
    expect(failed.failReason).toContain("503");
  });

  it("fails the run with the seed's systemic-failure message when no item got an agent response", async () => {
    server.setOptions({ faults: faultAlways(() => true, { kind: "status", status: 500 }) });
    const run = await createStoredRun(t.db, { items: makeItems(6), baseURL: server.baseURL, settings: { maxRetries: 0 } });
    const done = await executeRun(t.db, run.id, { model: fastModel(server.baseURL, { maxRetries: 0 }) });
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/^SearchQA rollout failed for all 6 items before an agent response \(6x\): error: /);
    expect(done.nDone).toBe(6);
  });

  it("stops early on an error retrying cannot fix, without burning through the items", async () => {
    server.setOptions({ requireApiKey: "right-key" });
    const run = await createStoredRun(t.db, { items: makeItems(200), baseURL: server.baseURL, settings: { concurrency: 4 } });
    const done = await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/401/);
    expect(server.stats().requests).toBeLessThanOrEqual(4);
    // Nothing is recorded for items the bad key stopped, so fixing the key and resuming runs them all.
    expect(done.nDone).toBe(0);
  });

  it("gives an item that outlives the task timeout the seed's timeout row, and frees its slot", async () => {
    server.setOptions({ faults: faultAlways("number 1?", { kind: "hang" }) });
    const run = await createStoredRun(t.db, {
      items: makeItems(6),
      baseURL: server.baseURL,
      settings: { concurrency: 2, execTimeoutS: 0.2, taskTimeoutS: 0.6, taskTimeoutGraceS: 0 },
    });
    const done = await executeRun(t.db, run.id, { model: fastModel(server.baseURL, { callTimeoutMs: 200 }) });
    expect(done.status).toBe("completed");
    expect(done.nTimeouts).toBe(1);
    const rows = await storedResults(t.db, run.id);
    expect(rows.find((r) => r.itemId === "q0001")).toMatchObject({ status: "timeout", phase: "timeout", failReason: "task-timeout-0.6s", agentOk: false });
    expect(rows.filter((r) => r.status === "correct")).toHaveLength(5);
  });

  it("sends the whole conversation on refinement turns and stops once a later turn has an answer", async () => {
    const run = await createStoredRun(t.db, { items: makeItems(1), baseURL: server.baseURL, settings: { maxTurns: 3 } });
    await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    expect(server.requests).toHaveLength(2);
    const second = server.requests[1]!.messages;
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(second[1]!.content).toContain("## Context\n[DOC] [TLE] Answer 0");
    expect(second[3]!.content).toMatch(/^Your previous answer was:\n/);
    const [row] = await storedResults(t.db, run.id);
    expect(row!.nTurns).toBe(2);
  });

  it("keeps finished results on cancel, and a resume runs only the rest", async () => {
    // Items 0–7 are answered, the calls for 8–11 are held: the run stands at 8 done when it is cancelled.
    const gate = itemGate(8);
    server.setOptions({ faults: gate.faults });
    const items = makeItems(40);
    const run = await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { concurrency: 4 } });
    const executing = executeRun(t.db, run.id, { model: fastModel(server.baseURL), heartbeatMs: 50, writer: { maxDelayMs: 10 } });
    await expect.poll(async () => (await getRun(t.db, run.id)).nDone, { timeout: 10_000 }).toBe(8);
    await expect.poll(() => gate.held()).toBe(4);
    await requestCancel(t.db, run.id);
    const cancelled = await executing;
    expect(cancelled.status).toBe("cancelled");
    const before = await storedResults(t.db, run.id);
    // Exactly items 0–7, in whatever order their four concurrent calls finished.
    expect(before.map((r) => r.itemId).sort()).toEqual(items.slice(0, 8).map((item) => item.id));
    expect(cancelled.nDone).toBe(before.length);

    gate.admit(Infinity);
    server.resetStats();
    server.requests.length = 0;
    const resumed = await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    expect(resumed.status).toBe("completed");
    const after = await storedResults(t.db, run.id);
    expect(after.map((r) => r.itemId).sort()).toEqual(items.map((i) => i.id).sort());
    const finishedBefore = new Set(before.map((r) => r.question));
    expect(server.requests.filter((r) => finishedBefore.has(r.question))).toEqual([]);
    // Rows written before the cancel are untouched by the resume.
    expect(after.slice(0, before.length)).toEqual(before);
  });

  it("refuses to execute a run another live process holds", async () => {
    // Every call is held: the first execution is still under way when the second one asks.
    const gate = itemGate(0);
    server.setOptions({ faults: gate.faults });
    const run = await createStoredRun(t.db, { items: makeItems(20), baseURL: server.baseURL, settings: { concurrency: 2 } });
    const first = executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    await expect.poll(() => gate.held()).toBe(2);
    await expect(executeRun(t.db, run.id, { model: fastModel(server.baseURL) })).rejects.toThrow(/being executed by another process/);
    await requestCancel(t.db, run.id);
    await first;
  });
});

describe("faults the client must survive", () => {
  it("retries malformed bodies, empty choices and dropped connections", async () => {
    const faults = [{ kind: "malformed" }, { kind: "empty-choices" }, { kind: "reset" }] as const;
    server.setOptions({ faults: faultFirstN(3, { kind: "malformed" }) });
    server.setOptions({ faults: { pick: (ctx) => (ctx.requestIndex < 3 ? faults[ctx.requestIndex] : undefined) } });
    const run = await createStoredRun(t.db, { items: makeItems(1), baseURL: server.baseURL });
    await executeRun(t.db, run.id, { model: fastModel(server.baseURL) });
    const [row] = await storedResults(t.db, run.id);
    expect(row).toMatchObject({ status: "correct", retries: 3, attempts: 4 });
  });
});
