import Link from "@/app/_components/link";
import type { RunWithNames } from "@/lib/db";
import { formatCount, formatScore } from "@/app/_lib/format";
import styles from "./home.module.css";
import { meanOf } from "@/lib/runs/metrics";

/** The latest runs, newest first, with their scores so far. */
export function RecentRuns({ runs }: { runs: RunWithNames[] }) {
  return (
    <table aria-label="Recent runs">
      <thead>
        <tr>
          <th>Run</th>
          <th>Status</th>
          <th>Dataset</th>
          <th>Skill</th>
          <th>Progress</th>
          <th className="num">EM</th>
          <th className="num">F1</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => {
          const percent = run.itemsTotal > 0 ? Math.round((100 * run.nDone) / run.itemsTotal) : 0;
          return (
            <tr key={run.id}>
              <td className={styles.wrap}>
                <Link href={`/runs/${run.id}`}>{run.name ?? `Run #${run.id}`}</Link>
              </td>
              <td>
                <span className={`badge ${run.status}`}>{run.status}</span>
              </td>
              <td className={styles.wrap}>
                <Link href={`/datasets/${run.datasetId}`}>{run.datasetName}</Link>
              </td>
              <td className={styles.wrap}>
                <Link href={`/skills/${run.skillId}?version=${run.skillVersion}`}>
                  {run.skillName} v{run.skillVersion}
                </Link>
              </td>
              <td className={styles.progressCell}>
                <progress max={100} value={percent} aria-label={`Run ${run.id} progress`} />
                <span className="muted">
                  {formatCount(run.nDone)} / {formatCount(run.itemsTotal)}
                </span>
              </td>
              <td className="num">{formatScore(meanOf(run.emSum, run.nDone))}</td>
              <td className="num">{formatScore(meanOf(run.f1Sum, run.nDone))}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
