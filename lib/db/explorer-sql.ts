import { Prisma } from "../../generated/prisma/client";
import { ITEM_FILTERS, MAX_REASON_CHARS, reasonMatch, type ItemFilter, type ItemQuery, type ItemSortKey, type SortDir } from "../runs/item-query";
import type { DatabaseEngine } from "./database-url";
import { searchCondition } from "./explorer-search";

/**
 * SQL fragments of the item explorer, from fixed lists only (user text is always a bound parameter). Each filter is
 * written on the columns of the explorer's covering indexes (see migration 20261130010000_item_explorer). Identifiers are
 * quoted and only functions both engines have are used, so SQLite and PostgreSQL take the same SQL (but the search's).
 */

/** Items of the run whose trials disagree on EM (some right, some not): the "flaky" filter. */
function flakyItemsSql(runId: number): Prisma.Sql {
  return Prisma.sql`"itemId" IN (SELECT "itemId" FROM "RunResult" WHERE "runId" = ${runId} GROUP BY "itemId" HAVING MIN("em") < 1 AND MAX("em") >= 1)`;
}

const FILTER_SQL: Record<Exclude<ItemFilter, "flaky">, Prisma.Sql> = {
  all: Prisma.sql`1 = 1`,
  failing: Prisma.sql`"em" = 0`,
  correct: Prisma.sql`"status" = 'correct'`,
  wrong: Prisma.sql`"status" = 'wrong'`,
  errors: Prisma.sql`"status" = 'error'`,
  timeouts: Prisma.sql`"status" = 'timeout'`,
  partial: Prisma.sql`"f1" > 0 AND "f1" < 1`,
  subem: Prisma.sql`"subEm" > 0 AND "em" = 0`,
};

function filterSql(filter: ItemFilter, runId: number): Prisma.Sql {
  return filter === "flaky" ? flakyItemsSql(runId) : FILTER_SQL[filter];
}

/** Per-filter counts in one pass; the keys are the filters. COUNT of a CASE counts the rows the filter keeps. */
export function filterCountsSql(runId: number): Prisma.Sql {
  const filters = ITEM_FILTERS.filter((filter) => filter !== "all");
  return Prisma.sql`COUNT(*) AS "all", ${Prisma.join(
    filters.map((filter) => Prisma.sql`COUNT(CASE WHEN ${filterSql(filter, runId)} THEN 1 END) AS "${Prisma.raw(filter)}"`),
  )}`;
}

/** Status sorts by outcome rather than alphabetically: correct, wrong, timeout, error. */
const SORT_SQL: Record<ItemSortKey, Prisma.Sql> = {
  item: Prisma.sql`"datasetItemId"`,
  question: Prisma.sql`"question"`,
  gold: Prisma.sql`"goldAnswersJson"`,
  predicted: Prisma.sql`"predictedAnswer"`,
  em: Prisma.sql`"em"`,
  f1: Prisma.sql`"f1"`,
  subEm: Prisma.sql`"subEm"`,
  status: Prisma.sql`(CASE "status" WHEN 'correct' THEN 0 WHEN 'wrong' THEN 1 WHEN 'timeout' THEN 2 ELSE 3 END)`,
  latency: Prisma.sql`"latencyMs"`,
  turns: Prisma.sql`"nTurns"`,
};

export function sortKeySql(sort: ItemSortKey): Prisma.Sql {
  return SORT_SQL[sort];
}

/**
 * ORDER BY for the sort. Ties go in dataset order whichever the direction (then the row id, so the order is total);
 * `reverse` walks the same order backwards (the previous item).
 */
export function orderBySql(sort: ItemSortKey, dir: SortDir, reverse = false): Prisma.Sql {
  const keyDir = (dir === "asc") !== reverse ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const tieDir = reverse ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  return Prisma.sql`ORDER BY ${SORT_SQL[sort]} ${keyDir}, "datasetItemId" ${tieDir}, "id" ${tieDir}`;
}

/** A row's place in the order: its sort key, dataset item and row id. */
export interface OrderPosition {
  key: string | number;
  datasetItemId: number;
  id: number;
}

/** The rows after (or before) `at` in the order of orderBySql(sort, dir): a keyset condition. */
export function beyondSql(sort: ItemSortKey, dir: SortDir, at: OrderPosition, side: "after" | "before"): Prisma.Sql {
  const key = SORT_SQL[sort];
  const keyMovesUp = (dir === "asc") === (side === "after");
  const keyCondition = keyMovesUp ? Prisma.sql`${key} > ${at.key}` : Prisma.sql`${key} < ${at.key}`;
  const tie =
    side === "after"
      ? Prisma.sql`("datasetItemId", "id") > (${at.datasetItemId}, ${at.id})`
      : Prisma.sql`("datasetItemId", "id") < (${at.datasetItemId}, ${at.id})`;
  return Prisma.sql`(${keyCondition} OR (${key} = ${at.key} AND ${tie}))`;
}

/** The run's rows the search keeps (all of them without a search). */
export function searchScopeSql(engine: DatabaseEngine, runId: number, q: string | undefined): Prisma.Sql {
  return q ? Prisma.sql`"runId" = ${runId} AND ${searchCondition(engine, q)}` : Prisma.sql`"runId" = ${runId}`;
}

/** The rows of the current view: the search scope, the filter and the failure group's reason. */
export function viewWhereSql(engine: DatabaseEngine, runId: number, query: Pick<ItemQuery, "filter" | "reason" | "q">): Prisma.Sql {
  return Prisma.sql`${searchScopeSql(engine, runId, query.q)} AND (${filterSql(query.filter, runId)})${reasonSql(query.reason)}`;
}

function reasonSql(reason: string | undefined): Prisma.Sql {
  if (reason === undefined) return Prisma.empty;
  const match = reasonMatch(reason);
  // substr counts characters, as reasonKey cuts them.
  return "exact" in match
    ? Prisma.sql` AND "failReason" = ${match.exact}`
    : Prisma.sql` AND substr("failReason", 1, ${MAX_REASON_CHARS}) = ${match.prefix}`;
}
