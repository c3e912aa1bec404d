import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { getDb, listDatasets, NotFoundError, getRun, type RunRecord, listSkillVersions, listSplitParts, responseCacheSize } from "@/lib/db";
import { describeBackends, withAgentPrograms } from "@/app/_lib/backends";
import { parseIdParam } from "../../_lib/ids";
import type { SearchParams } from "../../_lib/search-params";
import { startRunDefaults } from "../_lib/start-run-defaults";
import { NewRunForm, type SkillVersionGroup } from "./new-run-form";

export const metadata: Metadata = { title: "New run" };
// Reads the database and the model environment on every request.
export const dynamic = "force-dynamic";

export default async function NewRunPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const db = getDb();
  const [datasets, versions, splitParts, cacheSize] = await Promise.all([listDatasets(db), listSkillVersions(db), listSplitParts(db), responseCacheSize(db)]);
  const fromId = parseIdParam(params.from);
  const from = fromId === undefined ? undefined : await findRun(fromId);
  const backends = describeBackends();
  const backendOptions = await withAgentPrograms(backends.options);

  const groups = new Map<number, SkillVersionGroup>();
  for (const version of versions) {
    const group = groups.get(version.skillId) ?? { skillId: version.skillId, skillName: version.skillName, versions: [] };
    group.versions.push({ id: version.id, version: version.version, note: version.note });
    groups.set(version.skillId, group);
  }
  // Nothing to choose between: the only dataset (a split's parts are copies of their source), and the latest version of
  // the only skill that a person added (an optimisation's candidates, many of them rejected, are not the obvious choice).
  const onlySkill = groups.size === 1 ? [...groups.values()][0] : undefined;
  const sources = datasets.filter((dataset) => !splitParts.has(dataset.id));
  const added = versions.filter((version) => version.skillId === onlySkill?.skillId && version.originOptimizationId === null).at(-1);
  const obvious = { datasetId: sources.length === 1 ? sources[0]!.id : undefined, skillVersionId: onlySkill ? (added ?? onlySkill.versions.at(-1))?.id : undefined };
  const defaults = startRunDefaults({ backends, from, datasetId: parseIdParam(params.datasetId), skillVersionId: parseIdParam(params.skillVersionId), obvious });

  return (
    <>
      <h1>New run</h1>
      {fromId !== undefined ? (
        <p className={from ? "notice-box" : "error-box"}>
          {from ? <>Settings copied from <Link href={`/runs/${from.id}`}>run #{from.id}</Link>.</> : <>Run #{fromId} was not found; the form shows the defaults.</>}
        </p>
      ) : null}
      {datasets.length === 0 || groups.size === 0 ? (
        <p className="notice-box">
          A run needs a dataset and a skill.{" "}
          {datasets.length === 0 ? <><Link href="/datasets">Upload a dataset</Link> </> : null}
          {groups.size === 0 ? <Link href="/skills">Add a skill</Link> : null}
        </p>
      ) : (
        <NewRunForm
          datasets={datasets.map((dataset) => ({ id: dataset.id, name: dataset.name, itemCount: dataset.itemCount }))}
          skills={[...groups.values()]}
          backends={backendOptions}
          defaults={defaults}
          cacheSize={cacheSize}
        />
      )}
    </>
  );
}

async function findRun(id: number): Promise<RunRecord | undefined> {
  try {
    return await getRun(getDb(), id);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
