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
