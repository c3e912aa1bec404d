import { getRun, queryRunItems, type Db, type RunItemsPage } from "@/lib/db";
import { defaultItemFilter, parseItemQuery, type ItemQuery, type QueryParams } from "@/lib/runs/item-query";

/** What GET /api/runs/[id]/items returns: the view as understood (defaults filled in) and its page of items. */
export interface RunItemsPayload extends RunItemsPage {
  query: ItemQuery;
}

/**
 * The item explorer's data for scripts: the same query string as the run page, the same query layer. A NotFoundError
 * for an unknown run.
 */
export async function loadRunItems(db: Db, runId: number, params: QueryParams): Promise<RunItemsPayload> {
  const run = await getRun(db, runId);
  const query = parseItemQuery(params, { filter: defaultItemFilter(run.status === "queued" || run.status === "running") });
  const page = await queryRunItems(db, run.id, query);
  return { query: { ...query, page: page.page }, ...page };
}
