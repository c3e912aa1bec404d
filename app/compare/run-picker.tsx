import Link from "@/app/_components/link";
import { compareHref, MAX_COMPARED_RUNS, type CompareQuery } from "@/lib/compare/query";
import { type Db, listRunsWithNames } from "@/lib/db";
import { formatScore, modelLabel } from "@/app/_lib/format";
import styles from "./compare.module.css";
import { meanOf } from "@/lib/runs/metrics";

/** Other runs on the same dataset (only those: nothing else pairs item by item), each a link adding it to the selection. */
export async function RunPicker({ db, query, datasetId }: { db: Db; query: CompareQuery; datasetId: number }) {
  const candidates = (await listRunsWithNames(db, { datasetId })).filter((run) => !query.runIds.includes(run.id) && run.nDone > 0);
  if (candidates.length === 0 || query.runIds.length >= MAX_COMPARED_RUNS) return null;
  return (
    <details className={styles.picker} open={query.runIds.length < 2}>
      <summary>Add a run on the same dataset</summary>
      <ul>
        {candidates.slice(0, 30).map((run) => (
          <li key={run.id}>
            <Link href={compareHref({ runIds: [...query.runIds, run.id], diff: query.diff })}>
              #{run.id}{run.name ? ` ${run.name}` : ""} · {run.skillName} v{run.skillVersion} · {modelLabel(run)}
            </Link>{" "}
            <span className={`badge ${run.status}`}>{run.status}</span>{" "}
            <span className="hint">{run.nDone} items · EM {formatScore(meanOf(run.emSum, run.nDone))}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
