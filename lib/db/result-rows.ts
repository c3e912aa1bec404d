import type { RunResult } from "../../generated/prisma/client";
import type { ConversationEntry, ItemStatus, StoredItemResult } from "../runs/types";
import type { Db } from "./client";

/** A RunResult row as the domain's stored result. */
export function toStoredResult(row: RunResult): StoredItemResult {
  return {
    itemId: row.itemId,
    datasetItemId: row.datasetItemId,
    seq: row.seq,
    question: row.question,
    goldAnswers: JSON.parse(row.goldAnswersJson) as string[],
    em: row.em,
    f1: row.f1,
    subEm: row.subEm,
    hard: row.hard,
    soft: row.soft,
    predictedAnswer: row.predictedAnswer,
    response: row.response,
    failReason: row.failReason,
    agentOk: row.agentOk,
    nTurns: row.nTurns,
    status: row.status as ItemStatus,
    phase: row.phase as StoredItemResult["phase"],
    latencyMs: row.latencyMs,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    attempts: row.attempts,
    retries: row.retries,
    rateLimited: row.rateLimited,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

/** One item's stored result, or null when the run has none for it. */
export async function getStoredResult(db: Db, runId: number, itemId: string): Promise<StoredItemResult | null> {
  const row = await db.runResult.findUnique({ where: { runId_itemId: { runId, itemId } } });
  return row ? toStoredResult(row) : null;
}

/** A run's results in order of completion, a page at a time, so exports of any size stay flat in memory. */
export async function* iterateRunResultPages(db: Db, runId: number, pageSize = 1000): AsyncGenerator<StoredItemResult[]> {
  let afterSeq = 0;
  for (;;) {
    const page = await db.runResult.findMany({ where: { runId, seq: { gt: afterSeq } }, orderBy: { seq: "asc" }, take: pageSize });
    if (page.length > 0) yield page.map(toStoredResult);
    const last = page[page.length - 1];
    if (!last || page.length < pageSize) return;
    afterSeq = last.seq;
  }
}

export interface ItemConversation {
  userPrompt: string;
  conversation: ConversationEntry[];
}

export async function getItemConversation(db: Db, runId: number, itemId: string): Promise<ItemConversation | null> {
  const row = await db.runItemConversation.findUnique({ where: { runId_itemId: { runId, itemId } } });
  return row ? { userPrompt: row.userPrompt, conversation: JSON.parse(row.conversationJson) as ConversationEntry[] } : null;
}

/** Ids bound per IN (…) list: under the driver's 999 bound parameters with room for the rest of the query. */
export const IDS_PER_QUERY = 500;

/** Conversations for a page of items (exports), keyed by item id. */
export async function getItemConversations(db: Db, runId: number, itemIds: readonly string[]): Promise<Map<string, ItemConversation>> {
  const conversations = new Map<string, ItemConversation>();
  // In chunks: the driver adapter refuses statements with more than 999 bound parameters.
  for (let start = 0; start < itemIds.length; start += IDS_PER_QUERY) {
    const rows = await db.runItemConversation.findMany({ where: { runId, itemId: { in: itemIds.slice(start, start + IDS_PER_QUERY) } } });
    for (const row of rows) conversations.set(row.itemId, { userPrompt: row.userPrompt, conversation: JSON.parse(row.conversationJson) as ConversationEntry[] });
  }
  return conversations;
}

/** The highest order of completion stored for the run (0 if none); new results continue after it. */
export async function getLastSeq(db: Db, runId: number): Promise<number> {
  const last = await db.runResult.findFirst({ where: { runId }, orderBy: { seq: "desc" }, select: { seq: true } });
  return last?.seq ?? 0;
}

/** Item ids that already have a result: the seed's resume skips them. */
export async function getCompletedItemIds(db: Db, runId: number): Promise<Set<string>> {
  const rows = await db.runResult.findMany({ where: { runId }, select: { itemId: true } });
  return new Set(rows.map((row) => row.itemId));
}

/**
 * The most common fail reason among the run's rows, for the seed's systemic-failure message.
 * Ties go to the reason seen first in completion order, as Python's Counter.most_common does.
 * Only called once, when a whole run failed.
 */
export async function mostCommonFailReason(db: Db, runId: number): Promise<{ reason: string; count: number } | null> {
  const rows = await db.runResult.findMany({ where: { runId }, select: { failReason: true }, orderBy: { seq: "asc" } });
  const counts = new Map<string, number>();
  for (const { failReason } of rows) {
    const reason = failReason || "unknown error";
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  let best: { reason: string; count: number } | null = null;
  for (const [reason, count] of counts) if (!best || count > best.count) best = { reason, count };
  return best;
}
