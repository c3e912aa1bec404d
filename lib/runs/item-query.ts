import { z } from "zod";

/**
 * What the item explorer shows: a filter, an optional exact fail reason (a failure group), a search term, a sort and
 * a page. Pure, shared by the run page, the item page, the JSON route and lib/db/run-items.ts; it lives in the URL
 * so a view can be shared and the back button works.
 */

/**
 * "failing" is EM = 0 (wrong, error and timeout items); "subem" is sub-EM but not EM: right answer, wrong form;
 * "flaky" (runs with repeated trials) is every trial of an item whose trials disagree on EM.
 */
export const ITEM_FILTERS = ["all", "failing", "correct", "wrong", "errors", "timeouts", "partial", "subem", "flaky"] as const;
export type ItemFilter = (typeof ITEM_FILTERS)[number];

export const ITEM_FILTER_LABELS: Record<ItemFilter, string> = {
  all: "All",
  failing: "Failing",
  correct: "Correct",
  wrong: "Wrong answer",
  errors: "Errors",
  timeouts: "Timeouts",
  partial: "Partial credit",
  subem: "Sub-EM, not EM",
  flaky: "Flaky",
};

export const ITEM_FILTER_HINTS: Record<ItemFilter, string> = {
  all: "every item",
  failing: "EM = 0: wrong answers, errors and timeouts",
  correct: "EM = 1",
  wrong: "answered, but EM = 0",
  errors: "the model call failed",
  timeouts: "the task timeout fired",
  partial: "0 < F1 < 1",
  subem: "the gold answer is in the prediction (or the reverse) but EM = 0: right answer, wrong form",
  flaky: "runs with repeated trials: the trials of items that were sometimes right and sometimes wrong",
};

/** "item" is dataset order; the rest are the table's columns. */
export const ITEM_SORT_KEYS = ["item", "question", "gold", "predicted", "em", "f1", "subEm", "status", "latency", "turns"] as const;
export type ItemSortKey = (typeof ITEM_SORT_KEYS)[number];
export type SortDir = "asc" | "desc";

export const ITEMS_PER_PAGE = 50;
export const MAX_SEARCH_CHARS = 200;
/**
 * A failure group travels in the URL as its fail reason (a model error message). Messages can be long (a server's
 * whole error body), so past this many characters the URL carries the start of it with "…", meaning "starts with".
 */
export const MAX_REASON_CHARS = 500;
const REASON_CUT = "…";

export interface ItemQuery {
  filter: ItemFilter;
  /** Only items with exactly this fail reason: one model-error group. */
  reason?: string;
  /** Trimmed, never empty. */
  q?: string;
  sort: ItemSortKey;
  dir: SortDir;
  /** 1-based. */
  page: number;
}

// Text and dataset order read naturally A→Z; numbers highest first (F1 descending puts near misses on top).
const ASCENDING_FIRST: ReadonlySet<ItemSortKey> = new Set(["item", "question", "gold", "predicted", "status"]);
export const defaultSortDir = (key: ItemSortKey): SortDir => (ASCENDING_FIRST.has(key) ? "asc" : "desc");

/** A finished run opens on its failures; a run still going shows everything as it arrives. */
export function defaultItemFilter(runActive: boolean): ItemFilter {
  return runActive ? "all" : "failing";
}

const optionalText = (max: number) =>
  z
    .string()
    .transform((value) => value.trim().slice(0, max))
    .optional()
    .catch(undefined);

/** Anything malformed falls back to its default instead of failing the page. */
const ItemQuerySchema = z.object({
  filter: z.enum(ITEM_FILTERS).optional().catch(undefined),
  reason: z.string().max(MAX_REASON_CHARS * 4).optional().catch(undefined),
  q: optionalText(MAX_SEARCH_CHARS),
  sort: z.enum(ITEM_SORT_KEYS).optional().catch(undefined),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  page: z.string().regex(/^\d{1,9}$/).transform(Number).optional().catch(undefined),
});

export type QueryParams = Record<string, string | string[] | undefined> | URLSearchParams;

function first(params: QueryParams, key: string): string | undefined {
  if (params instanceof URLSearchParams) return params.get(key) ?? undefined;
  const value = params[key];
  return Array.isArray(value) ? value[0] : value;
}

export function parseItemQuery(params: QueryParams, defaults: { filter: ItemFilter }): ItemQuery {
  const parsed = ItemQuerySchema.parse({
    filter: first(params, "filter"),
    reason: first(params, "reason"),
    q: first(params, "q"),
    sort: first(params, "sort"),
    dir: first(params, "dir"),
    page: first(params, "page"),
  });
  const sort = parsed.sort ?? "item";
  return {
    filter: parsed.filter ?? defaults.filter,
    ...(parsed.reason ? { reason: parsed.reason } : {}),
    ...(parsed.q ? { q: parsed.q } : {}),
    sort,
    dir: parsed.dir ?? defaultSortDir(sort),
    page: Math.max(1, parsed.page ?? 1),
  };
}

/**
 * The query as URL parameters. The filter is always written (a link to "All" must stay "All" once the run has
 * finished and the default becomes "Failing"); the sort, direction and page only when they are not the default.
 */
export function itemQueryParams(query: ItemQuery, options: { page?: boolean } = {}): URLSearchParams {
  const params = new URLSearchParams({ filter: query.filter });
  if (query.reason) params.set("reason", query.reason);
  if (query.q) params.set("q", query.q);
  if (query.sort !== "item" || query.dir !== defaultSortDir(query.sort)) {
    params.set("sort", query.sort);
    params.set("dir", query.dir);
  }
  if ((options.page ?? true) && query.page > 1) params.set("page", String(query.page));
  return params;
}

/** The same view with another filter (or failure group): back to page 1, search and sort kept. */
export function withFilter(query: ItemQuery, filter: ItemFilter, reason?: string): ItemQuery {
  return { filter, ...(reason !== undefined ? { reason } : {}), ...(query.q ? { q: query.q } : {}), sort: query.sort, dir: query.dir, page: 1 };
}

/** Sorted by `key`: the other direction if it is already sorted by it, else the key's natural one; page 1. */
export function withSort(query: ItemQuery, key: ItemSortKey): ItemQuery {
  const dir = query.sort === key ? (query.dir === "asc" ? "desc" : "asc") : defaultSortDir(key);
  return { ...query, sort: key, dir, page: 1 };
}

export function withSearch(query: ItemQuery, q: string): ItemQuery {
  const term = q.trim().slice(0, MAX_SEARCH_CHARS);
  return { filter: query.filter, ...(query.reason !== undefined ? { reason: query.reason } : {}), ...(term ? { q: term } : {}), sort: query.sort, dir: query.dir, page: 1 };
}

/** The view without its page: what the item view carries, so prev / next walk the whole view. */
export function withoutPage(query: ItemQuery): Omit<ItemQuery, "page"> {
  return {
    filter: query.filter, ...(query.reason !== undefined ? { reason: query.reason } : {}), ...(query.q ? { q: query.q } : {}),
    sort: query.sort, dir: query.dir,
  };
}

/** The URL form of a fail reason: the reason itself, or its first MAX_REASON_CHARS characters and "…" when longer. */
export function reasonKey(failReason: string): string {
  const chars = Array.from(failReason);
  return chars.length > MAX_REASON_CHARS ? chars.slice(0, MAX_REASON_CHARS).join("") + REASON_CUT : failReason;
}

/** How a reason from the URL selects rows: the exact reason, or (cut by reasonKey) the reasons starting with it. */
export function reasonMatch(reason: string): { exact: string } | { prefix: string } {
  const chars = Array.from(reason);
  return chars.length === MAX_REASON_CHARS + 1 && reason.endsWith(REASON_CUT) ? { prefix: chars.slice(0, -1).join("") } : { exact: reason };
}
