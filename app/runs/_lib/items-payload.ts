import { getRun, NotFoundError, queryRunItems, type Db, type RunItemsPage } from "@/lib/db";
import { defaultItemFilter, parseItemQuery, type ItemQuery, type QueryParams } from "@/lib/runs/item-query";
import { RunIdSchema } from "./run-id";

/** What GET /api/runs/[id]/items returns: the view as understood (defaults filled in) and its page of items. */
export interface RunItemsPayload extends RunItemsPage {
  query: ItemQuery;
}

export type RunItemsResult = { status: 200; body: RunItemsPayload } | { status: 400 | 404; body: { error: string } };

/** The item explorer's data for scripts: the same query string as the run page, the same query layer. */
export async function loadRunItems(db: Db, rawId: string, params: QueryParams): Promise<RunItemsResult> {
  const id = RunIdSchema.safeParse(rawId);
  if (!id.success) return { status: 400, body: { error: id.error.issues[0]?.message ?? "invalid run id" } };
  try {
    const run = await getRun(db, id.data);
    const query = parseItemQuery(params, { filter: defaultItemFilter(run.status === "queued" || run.status === "running") });
    const page = await queryRunItems(db, run.id, query);
    return { status: 200, body: { query: { ...query, page: page.page }, ...page } };
  } catch (error) {
    if (error instanceof NotFoundError) return { status: 404, body: { error: `run ${id.data} not found` } };
    throw error;
  }
}
