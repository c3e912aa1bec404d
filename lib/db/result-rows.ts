import type { RunItemConversation, RunResult } from "../../generated/prisma/client";
import { buildUserPrompt } from "../prompts/user-prompt";
import type { ConversationEntry, ItemStatus, StoredItemResult } from "../runs/types";
import type { Db } from "./client";

/** A RunResult row as the domain's stored result. */
export function toStoredResult(row: RunResult): StoredItemResult {
  return {
    itemId: row.itemId,
    trial: row.trial,
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
    cachedFromRunId: row.cachedFromRunId,
  };
}

/** One trial of an item's stored result (the first by default), or null when the run has none for it. */
export async function getStoredResult(db: Db, runId: number, itemId: string, trial = 1): Promise<StoredItemResult | null> {
  const row = await db.runResult.findUnique({ where: { runId_itemId_trial: { runId, itemId, trial } } });
  return row ? toStoredResult(row) : null;
}

/** Every trial of an item in a run, in trial order (one row for a run without repeated trials). */
export async function getItemTrials(db: Db, runId: number, itemId: string): Promise<StoredItemResult[]> {
  const rows = await db.runResult.findMany({ where: { runId, itemId }, orderBy: { trial: "asc" } });
  return rows.map(toStoredResult);
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

export async function getItemConversation(db: Db, runId: number, itemId: string, trial = 1): Promise<ItemConversation | null> {
  const row = await db.runItemConversation.findUnique({ where: { runId_itemId_trial: { runId, itemId, trial } } });
  if (!row) return null;
  const items = row.userPromptFromItem ? await promptItems(db, await runDatasetId(db, runId), [itemId]) : undefined;
  return toItemConversation(row, items);
}

/** What a prompt that is not stored is rebuilt from. */
type PromptItem = { question: string; context: string };

async function runDatasetId(db: Db, runId: number): Promise<number | null> {
  return (await db.run.findUnique({ where: { id: runId }, select: { datasetId: true } }))?.datasetId ?? null;
}

/** The question and context of these items (at most IDS_PER_QUERY) of the run's dataset, by item id. */
async function promptItems(db: Db, datasetId: number | null, itemIds: readonly string[]): Promise<Map<string, PromptItem>> {
  if (datasetId === null) return new Map();
  const rows = await db.datasetItem.findMany({
    where: { datasetId, externalId: { in: [...itemIds] } },
    select: { externalId: true, question: true, context: true },
  });
  return new Map(rows.map((row) => [row.externalId, row]));
}

function toItemConversation(row: RunItemConversation, items?: Map<string, PromptItem>): ItemConversation {
  let userPrompt = row.userPrompt;
  if (row.userPromptFromItem) {
    const item = items?.get(row.itemId);
    // A dataset is never deleted while a run uses it, so its items are there.
    if (!item) throw new Error(`run ${row.runId}: item ${row.itemId} of its dataset is missing (its prompt is rebuilt from it)`);
    userPrompt = buildUserPrompt({ question: item.question, context: item.context });
  }
  return { userPrompt, conversation: JSON.parse(row.conversationJson) as ConversationEntry[] };
}

/** Ids bound per IN (…) list: under the driver's 999 bound parameters with room for the rest of the query. */
export const IDS_PER_QUERY = 500;

/** The key of one trial of an item in maps of a page of results (conversations by trial). */
export function itemTrialKey(itemId: string, trial: number): string {
  return `${trial}\u0000${itemId}`;
}

/** Conversations for a page of results (exports), keyed by itemTrialKey(item id, trial). */
export async function getItemConversations(
  db: Db,
  runId: number,
  results: readonly { itemId: string; trial: number }[],
): Promise<Map<string, ItemConversation>> {
  const conversations = new Map<string, ItemConversation>();
  const wanted = new Set(results.map((row) => itemTrialKey(row.itemId, row.trial)));
  const itemIds = [...new Set(results.map((row) => row.itemId))];
  // The run's dataset, read once when a page first needs a prompt rebuilt from its items.
  let datasetId: Promise<number | null> | undefined;
  // In chunks: the driver adapter refuses statements with more than 999 bound parameters.
  for (let start = 0; start < itemIds.length; start += IDS_PER_QUERY) {
    const rows = (await db.runItemConversation.findMany({ where: { runId, itemId: { in: itemIds.slice(start, start + IDS_PER_QUERY) } } }))
      .filter((row) => wanted.has(itemTrialKey(row.itemId, row.trial)));
    const fromItems = [...new Set(rows.filter((row) => row.userPromptFromItem).map((row) => row.itemId))];
    const items = fromItems.length > 0 ? await promptItems(db, await (datasetId ??= runDatasetId(db, runId)), fromItems) : undefined;
    for (const row of rows) conversations.set(itemTrialKey(row.itemId, row.trial), toItemConversation(row, items));
  }
  return conversations;
}

/** The highest order of completion stored for the run (0 if none); new results continue after it. */
export async function getLastSeq(db: Db, runId: number): Promise<number> {
  const last = await db.runResult.findFirst({ where: { runId }, orderBy: { seq: "desc" }, select: { seq: true } });
  return last?.seq ?? 0;
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
