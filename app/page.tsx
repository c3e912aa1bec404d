import Link from "@/app/_components/link";
import { getDb, listDatasets, listRunsWithNames, listSkillViews } from "@/lib/db";
import { findDemoRunInputs } from "@/lib/db/demo";
import { FirstRunHint, GettingStarted } from "./_home/getting-started";
import styles from "./_home/home.module.css";
import { RecentRuns } from "./_home/recent-runs";

// Reads the database on every request.
export const dynamic = "force-dynamic";

const RECENT_RUNS = 10;

export default async function HomePage() {
  const db = getDb();
  const [runs, datasets, skills, demo] = await Promise.all([listRunsWithNames(db), listDatasets(db), listSkillViews(db), findDemoRunInputs(db)]);
  const isEmpty = datasets.length === 0 && skills.length === 0;
  return (
    <>
      <div className={styles.titleRow}>
        <h1>Recent runs</h1>
        {runs.length > RECENT_RUNS && <Link href="/runs">All {runs.length} runs →</Link>}
      </div>
      {isEmpty ? <GettingStarted /> : runs.length === 0 ? <FirstRunHint demo={demo} /> : <RecentRuns runs={runs.slice(0, RECENT_RUNS)} />}
    </>
  );
}
