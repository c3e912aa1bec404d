import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { redirect } from "next/navigation";
import { compareHref, parseCompareQuery } from "@/lib/compare/query";
import { getDb, latestCompletedRunPerVersion, resolveReferenceRun, NotFoundError } from "@/lib/db";
import { parseIdParam } from "../_lib/ids";
import type { SearchParams } from "../_lib/search-params";
import { ComparisonView } from "./comparison-view";
import { CompareOverview } from "./overview";
import { loadComparison } from "./_lib/load-comparison";
import { RunPicker } from "./run-picker";

export const metadata: Metadata = { title: "Compare" };
// Reads the database on every request.
export const dynamic = "force-dynamic";

/**
 * /compare: with nothing selected, the latest completed run of each skill version per dataset. With `runs=` (first =
 * reference), the runs side by side. `from=<run>` and `skill=&dataset=` resolve a selection and redirect to its URL.
 */
export default async function ComparePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const db = getDb();
  const from = parseIdParam(params.from);
  if (from !== undefined) {
    let reference: number | null;
    try {
      reference = await resolveReferenceRun(db, from);
    } catch (error) {
      if (error instanceof NotFoundError) return <Problem message={`There is no run #${from}.`} />;
      throw error;
    }
    redirect(compareHref({ runIds: reference === null ? [from] : [reference, from] }));
  }
  const skillId = parseIdParam(params.skill);
  const datasetId = parseIdParam(params.dataset);
  if (skillId !== undefined && datasetId !== undefined) {
    const runs = await latestCompletedRunPerVersion(db, skillId, datasetId);
    if (runs.length === 0) return <Problem message="No version of this skill has a completed run on that dataset." />;
    redirect(compareHref({ runIds: runs.map((run) => run.runId) }));
  }

  const query = parseCompareQuery(params);
  if (query.runIds.length === 0) {
    return (
      <>
        <h1>Compare</h1>
        <CompareOverview />
      </>
    );
  }
  const load = await loadComparison(db, query.runIds, query.vs);
  if (!load.ok) return <Problem message={load.message} />;
  if (load.runs.length === 1) {
    const only = load.runs[0]!.run;
    return (
      <>
        <h1>Compare</h1>
        <p className="card">
          Run <Link href={`/runs/${only.id}`}>#{only.id}</Link> ({only.skillName} v{only.skillVersion}) has nothing to compare with yet:
          no other completed run on {only.datasetName}. Pick one below, or start a run with another skill version.
        </p>
        <RunPicker db={db} query={query} datasetId={only.datasetId} />
      </>
    );
  }
  return <ComparisonView load={load} query={query} />;
}

function Problem({ message }: { message: string }) {
  return (
    <>
      <h1>Compare</h1>
      <p className="error-box" role="alert">{message}</p>
      <p><Link href="/compare">Back to the overview</Link> · <Link href="/runs">Runs</Link></p>
    </>
  );
}
