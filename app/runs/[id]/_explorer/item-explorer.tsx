import { getDb, queryRunItems, type RunItemsPage } from "@/lib/db";
import { ITEM_FILTER_HINTS, ITEM_FILTER_LABELS, ITEM_FILTERS, reasonKey, withFilter, type ItemQuery } from "@/lib/runs/item-query";
import type { RunStatus } from "@/lib/runs/types";
import { formatCount } from "@/app/_lib/format";
import { explorerHref } from "../../_lib/item-links";
import { ViewDownloads } from "../downloads";
import { ExplorerFrame, NavButton, NavLink } from "./explorer-nav";
import { LiveSync } from "./live-sync";
import styles from "./explorer.module.css";
import { ItemsTable } from "./items-table";
import { SearchBox } from "./search-box";

/** "Wrong answer" is not a chip: it is the first failure group, with the same name. "Flaky" needs repeated trials. */
const chipFilters = (trials: number) => ITEM_FILTERS.filter((filter) => filter !== "wrong" && (filter !== "flaky" || trials > 1));

/**
 * The run's items: filters with their counts, failure groups, free-text search, a sortable table and pages, all in
 * the URL. Server-rendered from one call into lib/db (the same one the JSON route and the benchmark use).
 */
export async function ItemExplorer({ run, query }: { run: { id: number; status: RunStatus; done: number; trials: number }; query: ItemQuery }) {
  const runId = run.id;
  const active = run.status === "queued" || run.status === "running";
  const result = await queryRunItems(getDb(), runId, query);
  const shown = { ...query, page: result.page };
  // New results may come in by themselves only where no row the reader is looking at would move.
  const following = result.rows.length === 0 || (result.page === 1 && query.filter === "all" && query.reason === undefined && !query.q);
  return (
    <section id="items" className={`card ${styles.explorer}`} aria-labelledby="items-heading">
      <div className={styles.head}>
        <h2 id="items-heading">Items</h2>
        <span className="muted">{summary(result, query, run.trials)}</span>
        <LiveSync runId={runId} shownStatus={run.status} shownDone={run.done} following={following} />
      </div>
      <ExplorerFrame>
        <div className={styles.toolbar}>
          <div className={styles.chips} role="group" aria-label="Filter items">
            {chipFilters(run.trials).map((filter) => (
              <NavButton
                key={filter}
                href={explorerHref(runId, withFilter(shown, filter))}
                pressed={query.filter === filter && query.reason === undefined}
                label={ITEM_FILTER_LABELS[filter]}
                count={result.counts[filter]}
                title={ITEM_FILTER_HINTS[filter]}
              />
            ))}
          </div>
          <SearchBox key={query.q ?? ""} runId={runId} query={shown} />
        </div>
        {result.groups.length > 0 ? (
          <div className={styles.groups} role="group" aria-label="Failure groups">
            <span className={styles.groupsLabel}>Why items fail{query.q ? " (in this search)" : ""}:</span>
            {result.groups.map((group) => (
              <NavButton
                key={`${group.filter}:${group.reason ?? ""}:${group.label}`}
                href={explorerHref(runId, withFilter(shown, group.filter, group.reason === undefined ? undefined : reasonKey(group.reason)))}
                pressed={query.filter === group.filter && query.reason === (group.reason === undefined ? undefined : reasonKey(group.reason))}
                label={group.label}
                count={group.count}
                title={group.reason ?? undefined}
              />
            ))}
          </div>
        ) : null}
        {query.reason !== undefined ? (
          <p className={styles.reasonNote}>
            Only items that failed with <code>{query.reason || "(no message)"}</code>.{" "}
            <NavLink href={explorerHref(runId, withFilter(shown, query.filter))}>Show all {ITEM_FILTER_LABELS[query.filter].toLowerCase()}</NavLink>
          </p>
        ) : null}
        {result.rows.length === 0 ? (
          <p className={`muted ${styles.empty}`}>{emptyText(result, query, active)}</p>
        ) : (
          <ItemsTable runId={runId} rows={result.rows} query={shown} trials={run.trials} />
        )}
        <Pager runId={runId} query={shown} result={result} />
        {result.total > 0 ? <ViewDownloads runId={runId} query={shown} trials={run.trials} /> : null}
      </ExplorerFrame>
    </section>
  );
}

function summary(result: RunItemsPage, query: ItemQuery, trials: number): string {
  const view =
    query.reason !== undefined ? " in this failure group" : query.filter === "all" ? "" : ` · ${ITEM_FILTER_LABELS[query.filter]}`;
  const search = query.q ? ` matching “${query.q}”` : "";
  const scan = result.search === "scan" ? " (a search under 3 characters reads every item)" : "";
  return `${formatCount(result.total)} ${trials > 1 ? "trials" : "items"}${view}${search}${scan}`;
}

function emptyText(result: RunItemsPage, query: ItemQuery, active: boolean): string {
  if (result.counts.all === 0) return query.q ? `No item matches “${query.q}”.` : active ? "No results yet: items appear here as they finish." : "This run has no results.";
  return `No ${ITEM_FILTER_LABELS[query.filter].toLowerCase()} items${query.q ? ` matching “${query.q}”` : ""}.`;
}

function Pager({ runId, query, result }: { runId: number; query: ItemQuery; result: RunItemsPage }) {
  if (result.pageCount <= 1 && !result.hasNext) return null;
  const first = (result.page - 1) * result.pageSize + 1;
  const last = first + result.rows.length - 1;
  return (
    <nav className={styles.pager} aria-label="Item pages">
      {result.page > 1 ? (
        <NavLink href={explorerHref(runId, { ...query, page: result.page - 1 })}>← Previous page</NavLink>
      ) : (
        <span className="muted">← Previous page</span>
      )}
      <span>
        Items {formatCount(first)}–{formatCount(last)} of {formatCount(result.total)} · page {formatCount(result.page)} of{" "}
        {formatCount(result.pageCount)}
      </span>
      {result.hasNext ? (
        <NavLink href={explorerHref(runId, { ...query, page: result.page + 1 })}>Next page →</NavLink>
      ) : (
        <span className="muted">Next page →</span>
      )}
    </nav>
  );
}
