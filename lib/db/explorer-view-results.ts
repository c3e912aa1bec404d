import { Prisma, type RunResult } from "../../generated/prisma/client";
import type { ItemQuery } from "../runs/item-query";
import type { StoredItemResult } from "../runs/types";
import type { Db } from "./client";
import { engineOf } from "./engine";
import { beyondSql, orderBySql, sortKeySql, viewWhereSql, type OrderPosition } from "./explorer-sql";
import { IDS_PER_QUERY, toStoredResult } from "./result-rows";
import { ensureSearchIndexed } from "./search-index";

/** The item explorer's view without its page: what "Download this view" exports. */
export type ItemView = Omit<ItemQuery, "page">;

/**
 * The results of one explorer view (filter, failure group, search) in the table's order, a page at a time. The same
 * WHERE and ORDER BY as queryRunItems, walked by keyset (the last row's sort key, dataset item and id), so each page
 * costs the same however deep it is: exporting a 100,000-item view stays linear, where OFFSET paging would be quadratic.
 */
export async function* iterateViewResultPages(db: Db, runId: number, view: ItemView, pageSize = 1000): AsyncGenerator<StoredItemResult[]> {
  await ensureSearchIndexed(db, view.q);
  let after: OrderPosition | null = null;
  for (;;) {
    const keys: { id: number | bigint; d: number | bigint; k: string | number | bigint }[] = await db.$queryRaw`
      SELECT "id", "datasetItemId" AS d, ${sortKeySql(view.sort)} AS k FROM "RunResult"
      WHERE ${viewWhereSql(engineOf(db), runId, view)}${after ? Prisma.sql` AND ${beyondSql(view.sort, view.dir, after, "after")}` : Prisma.empty}
      ${orderBySql(view.sort, view.dir)} LIMIT ${pageSize}`;
    if (keys.length === 0) return;
    const ids = keys.map((row) => Number(row.id));
    const byId = new Map<number, RunResult>();
    for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
      for (const row of await db.runResult.findMany({ where: { id: { in: ids.slice(start, start + IDS_PER_QUERY) } } })) byId.set(row.id, row);
    }
    yield ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toStoredResult(row)] : [];
    });
    const last = keys[keys.length - 1]!;
    if (keys.length < pageSize) return;
    after = { id: Number(last.id), datasetItemId: Number(last.d), key: typeof last.k === "bigint" ? Number(last.k) : last.k };
  }
}
