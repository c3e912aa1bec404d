import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { getDb, listDatasets, listRunsWithNames, listSkillViews } from "@/lib/db";
import { pricesForDisplay } from "@/lib/model/prices";
import { FilterSelect } from "./filter-select";
import { ImportResultsForm } from "./import-results-form";
import { parseRunListQuery, runListHref, sortRunRows, toRunListRow, type RunListQuery } from "./_lib/run-list-query";
import { CompareSelected } from "./compare-selected";
import { RunsTable } from "./runs-table";
import styles from "./runs.module.css";

export const metadata: Metadata = { title: "Runs" };
// Reads the database on every request.
export const dynamic = "force-dynamic";

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = parseRunListQuery(await searchParams);
  const db = getDb();
  const [runs, datasets, skills] = await Promise.all([
    listRunsWithNames(db, { datasetId: query.datasetId, skillId: query.skillId }),
    listDatasets(db),
    listSkillViews(db),
  ]);
  const now = new Date();
  const prices = pricesForDisplay();
  const rows = sortRunRows(runs.map((run) => toRunListRow(run, now, prices)), query.sort, query.dir);
  const filtered = query.datasetId !== undefined || query.skillId !== undefined;

  return (
    <>
      <div className={styles.header}>
        <h1>Runs</h1>
        <Link className="button primary" href="/runs/new">New run</Link>
      </div>
      <ImportResultsForm datasets={datasets.map((dataset) => ({ id: dataset.id, name: dataset.name }))} />
      <form className={styles.filters} method="get" action="/runs" aria-label="Filter runs">
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="dir" value={query.dir} />
        <div className="field">
          <label htmlFor="filter-dataset">Dataset</label>
          <FilterSelect id="filter-dataset" name="datasetId" defaultValue={query.datasetId?.toString() ?? ""}>
            <option value="">All datasets</option>
            {datasets.map((dataset) => <option key={dataset.id} value={dataset.id}>{dataset.name}</option>)}
          </FilterSelect>
        </div>
        <div className="field">
          <label htmlFor="filter-skill">Skill</label>
          <FilterSelect id="filter-skill" name="skillId" defaultValue={query.skillId?.toString() ?? ""}>
            <option value="">All skills</option>
            {skills.map((skill) => <option key={skill.id} value={skill.id}>{skill.name}</option>)}
          </FilterSelect>
        </div>
        <button type="submit">Filter</button>
        {filtered ? <Link href={runListHref(clearFilters(query))}>Clear filters</Link> : null}
      </form>
      {rows.length === 0 ? (
        <p className={`card muted ${styles.empty}`}>
          {filtered ? "No runs match these filters." : <>No runs yet. <Link href="/runs/new">Start one</Link>.</>}
        </p>
      ) : (
        <>
          <CompareSelected />
          <RunsTable rows={rows} query={query} />
        </>
      )}
    </>
  );
}

function clearFilters(query: RunListQuery): RunListQuery {
  return { sort: query.sort, dir: query.dir };
}
