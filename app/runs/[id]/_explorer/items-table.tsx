import type { RunItemRow } from "@/lib/db";
import { withSort, type ItemQuery, type ItemSortKey } from "@/lib/runs/item-query";
import { formatLatency, formatScore } from "@/app/_lib/format";
import { explorerHref, itemHref, itemRowId } from "../../_lib/item-links";
import { clipText, visibleText } from "@/lib/text/visible-text";
import { CELL_TEXT_CHARS, ShownText } from "../../../_components/shown-text";
import { NavLink } from "./explorer-nav";
import styles from "./explorer.module.css";

const COLUMNS: { key: ItemSortKey; label: string; numeric?: boolean; className?: string }[] = [
  { key: "item", label: "Item", className: styles.colItem },
  { key: "question", label: "Question", className: styles.colQuestion },
  { key: "gold", label: "Gold", className: styles.colText },
  { key: "predicted", label: "Predicted", className: styles.colText },
  { key: "em", label: "EM", numeric: true, className: styles.colFlag },
  { key: "f1", label: "F1", numeric: true, className: styles.colScore },
  { key: "subEm", label: "Sub-EM", numeric: true, className: styles.colSubEm },
  { key: "status", label: "Status", className: styles.colStatus },
  { key: "latency", label: "Latency", numeric: true, className: styles.colLatency },
  { key: "turns", label: "Turns", numeric: true, className: styles.colTurns },
];

/** A cell's tooltip: the text as the cell shows it (cut, control characters visible). */
function tooltip(text: string): string {
  return visibleText(clipText(text, CELL_TEXT_CHARS).shown);
}

/**
 * The page of items; sorting is a link per column header, so the sort lives in the URL. Everything is text, cut at
 * CELL_TEXT_CHARS (the item view shows more) with control characters made visible (see shown-text.tsx). With repeated
 * trials each row is one trial of an item, and says which.
 */
export function ItemsTable({ runId, rows, query, trials }: { runId: number; rows: RunItemRow[]; query: ItemQuery; trials: number }) {
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          {COLUMNS.map((column) => {
            const active = query.sort === column.key;
            return (
              <th
                key={column.key}
                className={`${column.className ?? ""} ${column.numeric ? "num" : ""}`}
                aria-sort={active ? (query.dir === "asc" ? "ascending" : "descending") : "none"}
              >
                <NavLink className={styles.sortLink} href={explorerHref(runId, withSort(query, column.key))}>
                  {column.label}
                  <span className={styles.arrow} aria-hidden="true">{active ? (query.dir === "asc" ? "▲" : "▼") : ""}</span>
                </NavLink>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.trial}:${row.itemId}`} id={itemRowId(row.itemId, row.trial)}>
            <td className={styles.itemId}>
              {/* One link per row for keyboards and screen readers (the question); the id is a second mouse target. */}
              <NavLink href={itemHref(runId, row.itemId, query, row.trial)} tabIndex={-1} aria-hidden>{visibleText(row.itemId)}</NavLink>
              {trials > 1 ? <span className="muted"> · trial {row.trial}</span> : null}
              {row.cachedFromRunId !== null ? <> <span className="badge imported" title={`reply from the response cache, first produced by run #${row.cachedFromRunId}`}>cached</span></> : null}
            </td>
            <td className={styles.question}>
              <NavLink href={itemHref(runId, row.itemId, query, row.trial)} className={styles.clamp}>{row.question ? <ShownText text={row.question} max={CELL_TEXT_CHARS} /> : "(empty question)"}</NavLink>
            </td>
            <td className={styles.text}>
              <span className={styles.clamp} title={tooltip(row.goldAnswers.join(" | "))}><ShownText text={row.goldAnswers.join(" | ")} max={CELL_TEXT_CHARS} /></span>
            </td>
            <td className={styles.text}>
              {row.predictedAnswer ? (
                <span className={styles.clamp} title={tooltip(row.predictedAnswer)}><ShownText text={row.predictedAnswer} max={CELL_TEXT_CHARS} /></span>
              ) : row.status === "error" || row.status === "timeout" ? (
                // No answer to show: why there is none.
                <span className={`${styles.clamp} ${styles.reason}`} title={tooltip(row.failReason)}><ShownText text={row.failReason} max={CELL_TEXT_CHARS} /></span>
              ) : (
                <span className="muted">–</span>
              )}
            </td>
            <td className="num">{row.em >= 1 ? "1" : "0"}</td>
            <td className="num">{formatScore(row.f1)}</td>
            <td className="num">{row.subEm >= 1 ? "1" : "0"}</td>
            <td><span className={`badge ${row.status}`}>{row.status}</span></td>
            <td className="num">{formatLatency(row.latencyMs)}</td>
            <td className="num">{row.nTurns}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
