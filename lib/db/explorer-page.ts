import { Prisma } from "../../generated/prisma/client";
import { ITEM_FILTERS, ITEMS_PER_PAGE, type ItemFilter, type ItemQuery } from "../runs/item-query";
import type { ItemStatus } from "../runs/types";
import type { Db } from "./client";
import { engineOf } from "./engine";
import { searchModeOf, type SearchMode } from "./explorer-search";
import { filterCountsSql, orderBySql, searchScopeSql, viewWhereSql } from "./explorer-sql";
import { ensureSearchIndexed } from "./search-index";

/** One row of the item explorer's table: what it shows, never the response or the conversation. */
export interface RunItemRow {
  itemId: string;
  trial: number;
  /** The run whose reply the response cache gave this item (null: the model was called). */
  cachedFromRunId: number | null;
  question: string;
  goldAnswers: string[];
  predictedAnswer: string;
  em: number;
  f1: number;
  subEm: number;
  status: ItemStatus;
  latencyMs: number;
  nTurns: number;
  failReason: string;
}

export type ItemFilterCounts = Record<ItemFilter, number>;

/** Why items failed: wrong answers, timeouts, and model errors by message. Each is a filter (plus a reason). */
export interface FailureGroup {
  filter: "wrong" | "timeouts" | "errors";
  /** The exact fail reason of a model-error group; absent for "all other errors". */
  reason?: string;
  label: string;
  count: number;
}

export interface RunItemsPage {
  rows: RunItemRow[];
  /** The page shown: the one asked for, or the last one when that is past the end. */
  page: number;
  pageSize: number;
  pageCount: number;
  hasNext: boolean;
  /** Items in the current view (filter, failure group and search). */
  total: number;
  /** Items per filter within the current search, for the filter controls. */
  counts: ItemFilterCounts;
  /** Failure groups within the current search, largest first. */
  groups: FailureGroup[];
  /** How the search ran: the trigram index, or a scan for terms under 3 characters; null without a search. */
  search: SearchMode | null;
}

/** Error messages listed as their own group; the rest are gathered under "other errors". */
const ERROR_GROUPS_SHOWN = 8;

interface ResultRow {
  id: number | bigint;
  itemId: string;
  trial: number | bigint;
  cachedFromRunId: number | bigint | null;
  question: string;
  goldAnswersJson: string;
  predictedAnswer: string;
  em: number;
  f1: number;
  subEm: number;
  status: string;
  latencyMs: number;
  nTurns: number | bigint;
  failReason: string;
}

/**
 * One page of a run's items for the explorer. The page's ids come from the covering indexes alone (`limit + 1`
 * rows, to know whether another page follows); only those rows are then read in full.
 */
export async function queryRunItems(db: Db, runId: number, query: ItemQuery, options: { pageSize?: number } = {}): Promise<RunItemsPage> {
  const pageSize = options.pageSize ?? ITEMS_PER_PAGE;
  await ensureSearchIndexed(db, query.q);
  const counts = await countItemsByFilter(db, runId, query.q);
  const total = query.reason === undefined ? counts[query.filter] : await countView(db, runId, query);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(query.page, pageCount);
  const ids = await db.$queryRaw<{ id: number | bigint }[]>`
    SELECT "id" FROM "RunResult" WHERE ${viewWhereSql(engineOf(db), runId, query)} ${orderBySql(query.sort, query.dir)}
    LIMIT ${pageSize + 1} OFFSET ${(page - 1) * pageSize}`;
  const pageIds = ids.slice(0, pageSize).map((row) => Number(row.id));
  return {
    rows: await readRows(db, pageIds),
    page,
    pageSize,
    pageCount,
    hasNext: ids.length > pageSize,
    total,
    counts,
    groups: await failureGroups(db, runId, query.q, counts),
    search: query.q ? searchModeOf(query.q) : null,
  };
}

/** Items per filter within the search, in one pass over the run's covering index. */
export async function countItemsByFilter(db: Db, runId: number, q: string | undefined): Promise<ItemFilterCounts> {
  await ensureSearchIndexed(db, q);
  const [row] = await db.$queryRaw<Record<ItemFilter, number | bigint>[]>`
    SELECT ${filterCountsSql(runId)} FROM "RunResult" WHERE ${searchScopeSql(engineOf(db), runId, q)}`;
  return Object.fromEntries(ITEM_FILTERS.map((filter) => [filter, Number(row?.[filter] ?? 0)])) as ItemFilterCounts;
}

export async function countView(db: Db, runId: number, query: Pick<ItemQuery, "filter" | "reason" | "q">): Promise<number> {
  await ensureSearchIndexed(db, query.q);
  const [row] = await db.$queryRaw<{ n: number | bigint }[]>`SELECT COUNT(*) AS n FROM "RunResult" WHERE ${viewWhereSql(engineOf(db), runId, query)}`;
  return Number(row?.n ?? 0);
}

async function readRows(db: Db, ids: number[]): Promise<RunItemRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.$queryRaw<ResultRow[]>`
    SELECT "id", "itemId", "trial", "cachedFromRunId", "question", "goldAnswersJson", "predictedAnswer", "em", "f1", "subEm", "status", "latencyMs", "nTurns", "failReason"
    FROM "RunResult" WHERE "id" IN (${Prisma.join(ids)})`;
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toItemRow(row)] : [];
  });
}

function toItemRow(row: ResultRow): RunItemRow {
  return {
    itemId: row.itemId,
    trial: Number(row.trial),
    cachedFromRunId: row.cachedFromRunId === null ? null : Number(row.cachedFromRunId),
    question: row.question,
    goldAnswers: JSON.parse(row.goldAnswersJson) as string[],
    predictedAnswer: row.predictedAnswer,
    em: row.em,
    f1: row.f1,
    subEm: row.subEm,
    status: row.status as ItemStatus,
    latencyMs: row.latencyMs,
    nTurns: Number(row.nTurns),
    failReason: row.failReason,
  };
}

/**
 * Wrong answers and timeouts as one group each (their reasons name each item or repeat the timeout), model errors by
 * message: the largest messages each, the rest together (last). Reads only the error rows, through their index.
 */
export async function failureGroups(db: Db, runId: number, q: string | undefined, counts: ItemFilterCounts): Promise<FailureGroup[]> {
  const groups: FailureGroup[] = [];
  if (counts.wrong > 0) groups.push({ filter: "wrong", label: "Wrong answer", count: counts.wrong });
  if (counts.timeouts > 0) groups.push({ filter: "timeouts", label: "Timeout", count: counts.timeouts });
  if (counts.errors > 0) {
    const messages = await db.$queryRaw<{ failReason: string; n: number | bigint }[]>`
      SELECT "failReason", COUNT(*) AS n FROM "RunResult" WHERE ${searchScopeSql(engineOf(db), runId, q)} AND "status" = 'error'
      GROUP BY "failReason" ORDER BY n DESC, "failReason" LIMIT ${ERROR_GROUPS_SHOWN + 1}`;
    const shown = messages.length > ERROR_GROUPS_SHOWN ? messages.slice(0, ERROR_GROUPS_SHOWN - 1) : messages;
    for (const { failReason, n } of shown) {
      groups.push({ filter: "errors", reason: failReason, label: failReason || "unknown error", count: Number(n) });
    }
  }
  groups.sort((a, b) => b.count - a.count);
  const rest = counts.errors - groups.reduce((sum, group) => sum + (group.filter === "errors" ? group.count : 0), 0);
  // Last whatever its size: clicking it shows every error (the Errors filter).
  if (rest > 0) groups.push({ filter: "errors", label: "Other errors", count: rest });
  return groups;
}
