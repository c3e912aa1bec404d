import Link from "@/app/_components/link";
import { formatCost, formatDateTime, formatDuration, formatPercent, formatScore, modelLabel } from "@/app/_lib/format";
import { sortHref, type RunListQuery, type RunListRow, type RunSortKey } from "./_lib/run-list-query";
import { COMPARE_FORM_ID } from "./compare-selected";
import styles from "./runs.module.css";

const COLUMNS: { key: RunSortKey; label: string; numeric?: boolean }[] = [
  { key: "id", label: "Run" },
  { key: "status", label: "Status" },
  { key: "dataset", label: "Dataset" },
  { key: "skill", label: "Skill version" },
  { key: "model", label: "Model" },
  { key: "progress", label: "Progress" },
  { key: "em", label: "EM", numeric: true },
  { key: "f1", label: "F1", numeric: true },
  { key: "started", label: "Started" },
  { key: "duration", label: "Duration", numeric: true },
  { key: "cost", label: "Cost", numeric: true },
];

/** Server-rendered: sorting is a link per column header, so the sort lives in the URL. */
export function RunsTable({ rows, query }: { rows: RunListRow[]; query: RunListQuery }) {
  return (
    <table>
      <thead>
        <tr>
          <th><span className="visually-hidden">Select to compare</span></th>
          {COLUMNS.map((column) => {
            const active = query.sort === column.key;
            return (
              <th key={column.key} className={column.numeric ? "num" : undefined} aria-sort={active ? (query.dir === "asc" ? "ascending" : "descending") : "none"}>
                <Link className={styles.sortLink} href={sortHref(query, column.key)}>
                  {column.label}
                  <span className={styles.arrow} aria-hidden="true">{active ? (query.dir === "asc" ? "▲" : "▼") : ""}</span>
                </Link>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {rows.map(({ run, em, f1, fraction, durationSeconds, costUsd }) => (
          <tr key={run.id}>
            <td>
              <input
                type="checkbox" form={COMPARE_FORM_ID} name="runs" value={run.id} aria-label={`Select run #${run.id} to compare`}
                data-dataset-id={run.datasetId} data-dataset-name={run.datasetName}
              />
            </td>
            <td>
              <Link className={styles.runName} href={`/runs/${run.id}`}>{run.name ? `${run.name} (#${run.id})` : `#${run.id}`}</Link>
            </td>
            <td>
              <span className={`badge ${run.status}`}>{run.status}</span>
              {run.source === "imported" ? <> <span className="badge imported" title="read from a results file, not executed here">imported</span></> : null}
            </td>
            <td><Link href={`/datasets/${run.datasetId}`}>{run.datasetName}</Link></td>
            <td><Link href={`/skills/${run.skillId}?version=${run.skillVersion}`}>{run.skillName} v{run.skillVersion}</Link></td>
            <td>{modelLabel(run)}</td>
            <td>
              <div className={styles.progress}>
                <div className={styles.bar} aria-hidden="true"><div className={styles.barFill} style={{ width: formatPercent(fraction) }} /></div>
                <span>{run.nDone} / {run.itemsTotal}</span>
              </div>
            </td>
            <td className="num">{formatScore(em)}</td>
            <td className="num">{formatScore(f1)}</td>
            <td>{formatDateTime(run.startedAt)}</td>
            <td className="num">{formatDuration(durationSeconds)}</td>
            <td className="num">{formatCost(costUsd)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
