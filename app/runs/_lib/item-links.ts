/** Links of the item explorer and the item view (pure; safe in client components). */
import { ITEMS_PER_PAGE, itemQueryParams, type ItemQuery } from "@/lib/runs/item-query";

/** The run page showing this view of its items, scrolled to the explorer (or to one of its rows). */
export function explorerHref(runId: number, query: ItemQuery, anchor = "items"): string {
  return `/runs/${runId}?${itemQueryParams(query)}#${anchor}`;
}

/**
 * An item's page (one trial of it: `trial` in the query string past the first), carrying the view (not the page) so
 * previous / next follow the same filter, search and sort.
 */
export function itemHref(runId: number, itemId: string, query: Omit<ItemQuery, "page">, trial = 1): string {
  const params = itemQueryParams({ ...query, page: 1 }, { page: false });
  if (trial > 1) params.set("trial", String(trial));
  return `/runs/${runId}/items/${encodeURIComponent(itemId)}?${params}`;
}

/** The row of one trial of an item in the explorer's table: its element id, and the anchor a link back to it uses. */
export function itemRowId(itemId: string, trial = 1): string {
  return trial > 1 ? `item-${itemId}~trial-${trial}` : `item-${itemId}`;
}

/** Back from an item to the table: the page of the view holding it (the first page when it is not in the view). */
export function backToTableHref(runId: number, query: Omit<ItemQuery, "page">, itemId: string, position: number | null, trial = 1): string {
  const page = position === null ? 1 : Math.ceil(position / ITEMS_PER_PAGE);
  return explorerHref(runId, { ...query, page }, position === null ? "items" : encodeURIComponent(itemRowId(itemId, trial)));
}
