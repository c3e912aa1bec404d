import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { formatCost, formatCount, formatDateTime, formatDuration, formatScore } from "@/app/_lib/format";
import { getDb, listOptimizationOverviews, listOptimizationUsage } from "@/lib/db";
import { pricesForDisplay } from "@/lib/model/prices";
import { optimizationCost } from "@/lib/optimize/cost";
import { summarizeOptimization } from "@/lib/optimize/overview";
import { OptimizationStatusBadge } from "@/app/_components/optimization-status";
import { ImportSkillOptForm } from "./import-form";
import styles from "./optimize.module.css";

export const metadata: Metadata = { title: "Optimise" };
// Reads the database on every request.
export const dynamic = "force-dynamic";

export default async function OptimizationsPage() {
  const db = getDb();
  const rows = await listOptimizationOverviews(db);
  const usage = await listOptimizationUsage(db, rows.map((row) => row.id));
  const prices = pricesForDisplay();
  const now = new Date();
  return (
    <>
      <div className={styles.header}>
        <h1>Optimisations</h1>
        <Link className="button primary" href="/optimize/new">New optimisation</Link>
      </div>
      <p className="muted">
        SkillOpt&apos;s training loop: the analyst reads a train batch&apos;s failures, proposes edits to the skill, and the gate keeps a candidate only if it scores better on val.
      </p>
      {rows.length === 0 ? (
        <p className="notice-box">No optimisation yet. <Link href="/optimize/new">Start one</Link> from a skill version and a dataset split.</p>
      ) : (
        <table aria-label="Optimisations">
          <thead>
            <tr>
              <th>Optimisation</th><th>Status</th><th>Skill</th><th>Datasets</th><th>Models</th>
              <th className="num">Steps</th><th className="num">Accepted</th><th>Val: initial → best</th><th>Test</th>
              <th className="num">Spend</th><th>Started</th><th className="num">Duration</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const view = summarizeOptimization(row, now);
              return (
                <tr key={row.id}>
                  <td><Link className={styles.name} href={`/optimize/${row.id}`}>{row.name ? `${row.name} (#${row.id})` : `#${row.id}`}</Link></td>
                  <td><OptimizationStatusBadge status={row.status} source={row.source} /></td>
                  <td><Link href={`/skills/${row.skillId}?version=${row.initialVersion}`}>{row.skillName} v{row.initialVersion}</Link></td>
                  <td className={styles.datasets}>
                    train {row.train.id === 0 ? row.train.name : <Link href={`/datasets/${row.train.id}`}>{row.train.name}</Link>}<br />
                    val {row.val.id === 0 ? row.val.name : <Link href={`/datasets/${row.val.id}`}>{row.val.name}</Link>}
                    {row.test ? <><br />test {row.test.id === 0 ? row.test.name : <Link href={`/datasets/${row.test.id}`}>{row.test.name}</Link>}</> : null}
                  </td>
                  <td className={styles.small}>target {view.models.target}<br />optimizer {view.models.optimizer}{view.models.note ? <><br /><span className="hint" title={view.models.note}>recorded with scripted models</span></> : null}</td>
                  <td className="num">{view.done} / {view.planned}</td>
                  <td className="num">{view.accepted}</td>
                  <td>{formatScore(view.initialVal)} → {formatScore(view.bestVal)}</td>
                  <td className={styles.small}>{view.test ? <>initial {formatScore(view.test.initial)}<br />best {formatScore(view.test.best)}</> : "–"}</td>
                  <td className={`num ${styles.small}`}>{formatCount(row.targetCalls)} calls<br />{formatCount(row.optimizerTokens)} tokens<br />{formatCost(optimizationCost(row, usage.get(row.id)!, prices).total)}</td>
                  <td>{formatDateTime(row.startedAt ?? row.createdAt)}</td>
                  <td className="num">{formatDuration(view.durationS)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <ImportSkillOptForm />
    </>
  );
}
