import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { getDb, listSkillVersions } from "@/lib/db";
import { modelLabel } from "@/app/_lib/format";
import { AgentWorkspacesPanel } from "../_components/agent-workspaces-panel";
import { loadRunLive } from "../../_lib/live-payload";
import { foundOrNotFound, idOrNotFound } from "../../_lib/not-found";
import { defaultItemFilter, parseItemQuery } from "@/lib/runs/item-query";
import { ItemExplorer } from "./_explorer/item-explorer";
import { ConfigSummary } from "./config-summary";
import { RunDownloads } from "./downloads";
import { LiveRunView } from "./live-run-view";
import styles from "./run.module.css";

// Reads the database on every request; the live part then polls /api/runs/[id]/live.
export const dynamic = "force-dynamic";

interface RunPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: RunPageProps): Promise<Metadata> {
  return { title: `Run #${(await params).id}` };
}

export default async function RunPage({ params, searchParams }: RunPageProps) {
  const db = getDb();
  const initial = await foundOrNotFound(loadRunLive(db, idOrNotFound((await params).id)));
  const { run } = initial;
  const active = run.status === "queued" || run.status === "running";
  const versions = (await listSkillVersions(db)).map((version) => ({
    id: version.id,
    skillName: version.skillName,
    label: `${version.skillName} v${version.version}${version.note ? ` — ${version.note}` : ""}`,
  }));

  return (
    <>
      <p className={styles.breadcrumb}>
        <Link href="/runs">Runs</Link> / #{run.id}
      </p>
      <h1>
        Run #{run.id}
        {run.name ? <span className={styles.runName}> {run.name}</span> : null}
        {run.source === "imported" ? <> <span className="badge imported" title="read from a results file, not executed here">imported</span></> : null}
      </h1>
      <p className={styles.subtitle}>
        <Link href={`/skills/${run.skillId}?version=${run.skillVersion}`}>{run.skillName} v{run.skillVersion}</Link>
        {" on "}
        <Link href={`/datasets/${run.datasetId}`}>{run.datasetName}</Link>
        {" · "}
        {modelLabel(run)}
        {" · "}
        <Link href={`/compare?from=${run.id}`}>Compare with the previous version</Link>
        {" · "}
        <Link href={`/optimize/new?skillVersionId=${run.skillVersionId}&datasetId=${run.datasetId}`}>Optimise this skill</Link>
      </p>
      <LiveRunView initial={initial} versions={versions} />
      <RunDownloads runId={run.id} trials={run.config.settings.trials} />
      {/* The item explorer: its view (filter, search, sort, page) lives in the query string. */}
      <ItemExplorer
        run={{ id: run.id, status: run.status, done: initial.stats.done, trials: run.config.settings.trials }}
        query={parseItemQuery(await searchParams, { filter: defaultItemFilter(active) })}
      />
      <AgentWorkspacesPanel runId={run.id} />
      <ConfigSummary run={run} />
    </>
  );
}
