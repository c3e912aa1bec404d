import Link from "@/app/_components/link";
import { getDb, listRunsWithNames } from "@/lib/db";
import { formatCost, formatDateTime, formatScore, modelLabel } from "@/app/_lib/format";
import { pricesForDisplay, usageCost } from "@/lib/model/prices";
import { latestCompletedBySkillVersion } from "./_lib/latest-completed";

/** Skill versions side by side: the latest completed run of each on each dataset. */
export async function CompareOverview() {
  const groups = latestCompletedBySkillVersion(await listRunsWithNames(getDb()));
  const prices = pricesForDisplay();
  return (
    <>
      <p className="muted">
        Tick two or more runs on the Runs page (or use “Compare these versions” on a skill page, or “Compare” on a run) to
        compare them item by item. Below: the latest completed run of each skill version on each dataset, best EM first. Runs with a different model or a
        different number of items are not strictly comparable: check those columns before reading the scores.
      </p>
      {groups.length === 0 ? (
        <p className="card muted">
          No completed runs yet. <Link href="/runs/new">Start a run</Link> and it will appear here once it completes.
        </p>
      ) : (
        groups.map((group) => (
          <section key={group.datasetId} aria-labelledby={`compare-dataset-${group.datasetId}`}>
            <h2 id={`compare-dataset-${group.datasetId}`}>
              <Link href={`/datasets/${group.datasetId}`}>{group.datasetName}</Link>
            </h2>
            <table>
              <thead>
                <tr>
                  <th>Dataset</th><th>Skill version</th><th>Model</th><th className="num">Items</th>
                  <th className="num">EM</th><th className="num">F1</th><th className="num">sub-EM</th><th className="num">Cost</th><th>Run</th><th>Finished</th>
                </tr>
              </thead>
              <tbody>
                {group.rows.map(({ run, em, f1, subEm, completedRuns }) => (
                  <tr key={run.id}>
                    <td>{run.datasetName}</td>
                    <td><Link href={`/skills/${run.skillId}?version=${run.skillVersion}`}>{run.skillName} v{run.skillVersion}</Link></td>
                    <td>{modelLabel(run)}</td>
                    <td className="num">{run.nDone}</td>
                    <td className="num">{formatScore(em)}</td>
                    <td className="num">{formatScore(f1)}</td>
                    <td className="num">{formatScore(subEm)}</td>
                    <td className="num">{formatCost(usageCost(run, prices).usd)}</td>
                    <td>
                      <Link href={`/runs/${run.id}`}>#{run.id}</Link>
                      {completedRuns > 1 ? <span className="hint"> (latest of {completedRuns})</span> : null}
                    </td>
                    <td>{formatDateTime(run.finishedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))
      )}
    </>
  );
}
