import type { DatasetStats, Distribution } from "@/lib/datasets";
import { MAX_CONTEXT_CHARS } from "@/lib/prompts";
import { formatCount } from "@/app/_lib/format";
import { MAX_LISTED_METADATA_FIELDS } from "@/lib/datasets/stats";
import { ShownText } from "../../_components/shown-text";
import styles from "./dataset-page.module.css";

const DISTRIBUTIONS: { key: "answersPerItem" | "answerLength" | "contextLength"; label: string }[] = [
  { key: "answersPerItem", label: "Answers per item" },
  { key: "answerLength", label: "Answer length (characters)" },
  { key: "contextLength", label: "Context length (characters)" },
];

const COLUMNS: { key: keyof Distribution; label: string }[] = [
  { key: "min", label: "Min" },
  { key: "median", label: "Median" },
  { key: "mean", label: "Mean" },
  { key: "p95", label: "p95" },
  { key: "max", label: "Max" },
];

function formatStat(value: number): string {
  return Number.isInteger(value) ? formatCount(value) : value.toLocaleString("en-US", { maximumFractionDigits: 1 });
}

function share(count: number, total: number): string {
  return total === 0 ? "" : ` (${((100 * count) / total).toFixed(1)}%)`;
}

/** The import-time statistics: counts, length distributions, what truncation will cut, metadata fields. */
export function DatasetStatsView({ stats }: { stats: DatasetStats }) {
  // Sliced again: a dataset imported before the list was bounded may carry any number of fields in its stats.
  const allFields = Object.entries(stats.metadataFields).sort(([, a], [, b]) => b - a);
  const metadata = allFields.slice(0, MAX_LISTED_METADATA_FIELDS);
  const unlisted = (stats.unlistedMetadataFields ?? 0) + allFields.length - metadata.length;
  return (
    <>
      <dl className={styles.facts}>
        <div className="card">
          <dt>Items</dt>
          <dd>{formatCount(stats.itemCount)}</dd>
        </div>
        <div className="card">
          <dt>Contexts over {formatCount(MAX_CONTEXT_CHARS)} characters</dt>
          <dd>
            {formatCount(stats.truncatedContexts)}
            <span className={styles.share}>{share(stats.truncatedContexts, stats.itemCount)}</span>
          </dd>
          <p className="hint">Truncated to {formatCount(MAX_CONTEXT_CHARS)} characters in the prompt.</p>
        </div>
        <div className="card">
          <dt>Empty contexts</dt>
          <dd>
            {formatCount(stats.emptyContexts)}
            <span className={styles.share}>{share(stats.emptyContexts, stats.itemCount)}</span>
          </dd>
          <p className="hint">The model answers these from the question alone.</p>
        </div>
      </dl>

      <table className={styles.statsTable} aria-label="Length statistics">
        <thead>
          <tr>
            <th />
            {COLUMNS.map((column) => (
              <th key={column.key} className="num">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {DISTRIBUTIONS.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.label}</th>
              {COLUMNS.map((column) => (
                <td key={column.key} className="num">
                  {formatStat(stats[row.key][column.key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>

      <h3>Metadata fields</h3>
      {metadata.length === 0 ? (
        <p className="muted">None: items carry only id, question, answers and context.</p>
      ) : (
        <ul className={styles.metadata}>
          {metadata.map(([field, count]) => (
            <li key={field}>
              <code><ShownText text={field} max={200} /></code> <span className="muted">on {formatCount(count)} items</span>
            </li>
          ))}
        </ul>
      )}
      {unlisted > 0 ? <p className="muted">and {formatCount(unlisted)} more fields, each on fewer items</p> : null}
    </>
  );
}
