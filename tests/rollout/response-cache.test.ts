// The response cache through the real executor and client: a cached re-run calls no model and costs no tokens, each item
// says which run produced its reply, errors are never cached, and runs without the setting always call the model.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clearResponseCache, getRun, responseCacheSize } from "@/lib/db";
import { executeRun } from "@/lib/rollout";
import { faultAlways, startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";
import { createStoredRun, makeItems, storedResults } from "../support/rollout-fixtures";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
let server: FakeOpenAIServer;
beforeEach(async () => {
  t = createTestDb();
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  await server.close();
  await t.close();
});

async function cachedFrom(runId: number) {
  const rows = await t.db.runResult.findMany({ where: { runId }, select: { itemId: true, cachedFromRunId: true } });
  return rows.map((row) => row.cachedFromRunId);
}

describe("response cache", () => {
  it("answers a re-run with the cache on from stored replies: no model call, no tokens, the source run named", async () => {
    const items = makeItems(20);
    const first = await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { cache: true } });
    await executeRun(t.db, first.id);
    expect(server.stats().requests).toBe(20);
    expect(await cachedFrom(first.id)).toEqual(Array(20).fill(null));
    expect((await responseCacheSize(t.db)).entries).toBe(20);

    server.resetStats();
    const again = await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { cache: true } });
    const done = await executeRun(t.db, again.id);
    expect(server.stats().requests).toBe(0);
    expect(await cachedFrom(again.id)).toEqual(Array(20).fill(first.id));
    expect(done.promptTokens + done.completionTokens).toBe(0);
    expect(done.emSum).toBe((await getRun(t.db, first.id)).emSum);
    // The same answers, scored the same way.
    const [a, b] = [await storedResults(t.db, first.id), await storedResults(t.db, again.id)];
    expect(b.map((r) => [r.itemId, r.response, r.em])).toEqual(expect.arrayContaining(a.map((r) => [r.itemId, r.response, r.em])));
  });

  it("calls the model when the cache is off, and for requests that differ (another skill)", async () => {
    const items = makeItems(10);
    await executeRun(t.db, (await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { cache: true } })).id);
    server.resetStats();
    await executeRun(t.db, (await createStoredRun(t.db, { items, baseURL: server.baseURL })).id);
    expect(server.stats().requests).toBe(10);
    server.resetStats();
    await executeRun(t.db, (await createStoredRun(t.db, { items, baseURL: server.baseURL, skill: "Another skill.", settings: { cache: true } })).id);
    expect(server.stats().requests).toBe(10);
  });

  it("never stores an error, so the next run asks the model again; clearing empties it", async () => {
    const items = makeItems(5);
    server.setOptions({ faults: faultAlways(() => true, { kind: "status", status: 500 }) });
    await executeRun(t.db, (await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { cache: true, maxRetries: 0 } })).id);
    expect((await responseCacheSize(t.db)).entries).toBe(0);
    server.setOptions({ faults: undefined });
    server.resetStats();
    await executeRun(t.db, (await createStoredRun(t.db, { items, baseURL: server.baseURL, settings: { cache: true, maxRetries: 0 } })).id);
    expect(server.stats().requests).toBe(5);
    expect(await clearResponseCache(t.db)).toBe(5);
    expect((await responseCacheSize(t.db)).entries).toBe(0);
  });
});
