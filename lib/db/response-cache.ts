import type { Db } from "./client";

/** The response cache's rows (lib/model/response-cache-key.ts makes the keys). */

export interface CachedResponse {
  text: string;
  promptTokens: number;
  completionTokens: number;
  runId: number;
}

export async function findCachedResponse(db: Db, key: string): Promise<CachedResponse | null> {
  return db.responseCache.findUnique({ where: { key }, select: { text: true, promptTokens: true, completionTokens: true, runId: true } });
}

/** Stores a reply under its key; the first reply stored for a key stays (a replay or a race keeps it). */
export async function storeCachedResponse(db: Db, key: string, response: CachedResponse): Promise<void> {
  await db.responseCache.upsert({ where: { key }, create: { key, ...response }, update: {} });
}

export async function responseCacheSize(db: Db): Promise<{ entries: number; bytes: number }> {
  const [row] = await db.$queryRawUnsafe<{ entries: bigint | number; bytes: bigint | number | null }[]>(
    `SELECT COUNT(*) AS entries, SUM(LENGTH("text") + LENGTH("key")) AS bytes FROM "ResponseCache"`,
  );
  return { entries: Number(row?.entries ?? 0), bytes: Number(row?.bytes ?? 0) };
}

export async function clearResponseCache(db: Db): Promise<number> {
  return (await db.responseCache.deleteMany({})).count;
}

/** How many of a run's items reused a cached reply. */
export async function countCachedResults(db: Db, runId: number): Promise<number> {
  return db.runResult.count({ where: { runId, cachedFromRunId: { not: null } } });
}
