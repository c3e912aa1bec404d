// "Clear response cache" (the New run form's button) as Next calls the action for a POST: without the confirm step's
// answer it removes nothing and says why; without the token (when one is configured) it does nothing at all. The
// process's database (getDb) is a fresh test database. A confirmed clear ends in revalidatePath, which this scope
// cannot serve (tests/support/request-scope.ts): cost-and-cache.browser.test.ts clears the cache from the page.
// First: sets up what Next's request scope needs before next/headers loads.
import { inRequestScope, LOOPBACK_HEADERS } from "../support/request-scope";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb, responseCacheSize, storeCachedResponse } from "@/lib/db";
import { SIGN_IN_AGAIN } from "@/app/_lib/guarded-action";
import { clearResponseCacheAction } from "@/app/runs/actions";
import { createTestDb, type TestDatabase } from "../support/test-db";

let t: TestDatabase;
beforeAll(() => {
  t = createTestDb();
  process.env.DATABASE_URL = t.url;
});
afterAll(async () => {
  await getDb().$disconnect();
  await t.close();
});

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};
const fill = async (count: number) => {
  for (let i = 0; i < count; i++) await storeCachedResponse(t.db, `key-${i}`, { text: `reply ${i}`, promptTokens: 10, completionTokens: 2, runId: 1 });
};

describe("clearResponseCacheAction", () => {
  const original = process.env.SKILLBOARD_TOKEN;
  afterEach(() => {
    if (original === undefined) delete process.env.SKILLBOARD_TOKEN;
    else process.env.SKILLBOARD_TOKEN = original;
  });

  it("removes nothing without the confirmation", async () => {
    await fill(3);
    const asBrowser = <T>(call: () => Promise<T>) => inRequestScope(LOOPBACK_HEADERS, call);
    for (const fields of [{}, { confirm: "yes" }] as Record<string, string>[]) {
      expect(await asBrowser(() => clearResponseCacheAction(form(fields)))).toEqual({ ok: false, error: "Confirm clearing the response cache first." });
    }
    expect((await responseCacheSize(t.db)).entries).toBe(3);
  });

  it("does nothing for a request without the configured token", async () => {
    await fill(3);
    process.env.SKILLBOARD_TOKEN = "a-cache-test-token-0123456789";
    expect(await inRequestScope(LOOPBACK_HEADERS, () => clearResponseCacheAction(form({ confirm: "clear" })))).toEqual({ ok: false, error: SIGN_IN_AGAIN });
    expect((await responseCacheSize(t.db)).entries).toBe(3);
  });
});
