import { type Db, datasetsComparableForSkill } from "@/lib/db";
import styles from "./skill-page.module.css";

/** "Compare these versions": the latest completed run of each version on the chosen dataset, in /compare. */
export async function CompareVersions({ db, skillId }: { db: Db; skillId: number }) {
  const datasets = await datasetsComparableForSkill(db, skillId);
  if (datasets.length === 0) return null;
  return (
    <form method="get" action="/compare" className={styles.compareVersions} aria-label="Compare these versions">
      <input type="hidden" name="skill" value={skillId} />
      <label htmlFor="compare-dataset">On dataset</label>
      <select id="compare-dataset" name="dataset" defaultValue={datasets[0]?.id}>
        {datasets.map((dataset) => (
          <option key={dataset.id} value={dataset.id}>{dataset.name} ({dataset.versions} versions with a completed run)</option>
        ))}
      </select>
      <button type="submit">Compare these versions</button>
    </form>
  );
}
