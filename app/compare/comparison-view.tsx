import Link from "@/app/_components/link";
import { compareHref, type CompareQuery } from "@/lib/compare";
import { getDb, getSkillVersion } from "@/lib/db";
import type { ComparisonLoad } from "./_lib/load-comparison";
import { AccuracyOverlay } from "./accuracy-overlay";
import { BreakdownTables } from "./breakdown-table";
import styles from "./compare.module.css";
import { OutcomeSection } from "./outcome-section";
import { RunPicker } from "./run-picker";
import { SkillDiffView } from "@/app/_components/skill-diff-view";
import { DifferencesTable, RunsTable } from "./summary-tables";

/** The comparison of the selected runs (the first is the reference), every part of it driven by the URL. */
export async function ComparisonView({ load, query }: { load: Extract<ComparisonLoad, { ok: true }>; query: CompareQuery }) {
  const db = getDb();
  const { runs, breakdown } = load;
  const reference = runs[0]!;
  const focus = runs.find((entry) => entry.run.id === query.vs) ?? runs[1]!;
  const [before, after] = await Promise.all([getSkillVersion(db, reference.run.skillVersionId), getSkillVersion(db, focus.run.skillVersionId)]);
  const download = `/compare/download?runs=${query.runIds.join(",")}`;
  return (
    <>
      <p className={styles.breadcrumb}><Link href="/compare">Compare</Link> / {reference.run.datasetName}</p>
      <div className={styles.header}>
        <h1>Compare</h1>
        <a className="button" href={download} download>Download CSV</a>
      </div>
      <p className="muted">
        {runs.length} runs on <Link href={`/datasets/${reference.run.datasetId}`}>{reference.run.datasetName}</Link>; the reference is{" "}
        <Link href={`/runs/${reference.run.id}`}>#{reference.run.id}</Link> ({reference.run.skillName} v{reference.run.skillVersion}).
      </p>
      <RunPicker db={db} query={query} datasetId={reference.run.datasetId} />

      <section className={`card ${styles.section}`} aria-labelledby="summary-heading">
        <h2 id="summary-heading">Summary</h2>
        <RunsTable runs={runs} />
        <DifferencesTable runs={runs} />
      </section>

      <OutcomeSection db={db} runs={runs} focus={focus} query={query} />

      <SkillDiffView before={before} after={after} layout={query.diff} layoutHref={(diff) => compareHref({ ...query, diff })} />

      <section className={`card ${styles.section}`} aria-labelledby="overlay-heading">
        <h2 id="overlay-heading">Running accuracy (EM against items completed)</h2>
        <AccuracyOverlay series={runs.map(({ run, curve }, index) => ({ runId: run.id, label: `#${run.id} ${run.skillName} v${run.skillVersion}${index === 0 ? " (reference)" : ""}`, curve }))} />
      </section>

      {breakdown.length > 0 ? (
        <section className={`card ${styles.section}`} aria-labelledby="breakdown-heading">
          <h2 id="breakdown-heading">By item metadata: #{focus.run.id} against #{reference.run.id}</h2>
          <BreakdownTables fields={breakdown} referenceId={reference.run.id} otherId={focus.run.id} />
        </section>
      ) : null}
    </>
  );
}
