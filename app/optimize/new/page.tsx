import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { describeBackends } from "@/app/_lib/backends";
import { parseIdParam } from "@/app/_lib/ids";
import type { SearchParams } from "@/app/_lib/search-params";
import { getDb, listDatasets, listSkillVersions } from "@/lib/db";
import { SKILLOPT_DEFAULT, SKILLOPT_PAPER, TARGET_DEFAULTS } from "../_lib/optimization-form";
import { NewOptimizationForm } from "./new-optimization-form";

export const metadata: Metadata = { title: "New optimisation" };
// Reads the database and the model environment on every request.
export const dynamic = "force-dynamic";

export default async function NewOptimizationPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const db = getDb();
  const [datasets, versions] = await Promise.all([listDatasets(db), listSkillVersions(db)]);
  // Only model backends: the optimizer is a chat model, and the target's rollouts feed the analyst's trajectories.
  const backends = describeBackends().options.filter((option) => option.backend === "openai" || option.backend === "azure");
  const chosen = parseIdParam(params.skillVersionId);
  const dataset = parseIdParam(params.datasetId);
  return (
    <>
      <h1>New optimisation</h1>
      <p className="muted">
        Runs SkillOpt&apos;s loop on the server: train batches are rolled out with the current skill, the analyst proposes edits from the failures, and
        each candidate is scored on val and kept only if the gate accepts it. Test is scored once, at the end.
      </p>
      {datasets.length === 0 || versions.length === 0 ? (
        <p className="notice-box">
          An optimisation needs a dataset and a skill. {datasets.length === 0 ? <><Link href="/datasets">Upload a dataset</Link> </> : null}
          {versions.length === 0 ? <Link href="/skills">Add a skill</Link> : null}
        </p>
      ) : (
        <NewOptimizationForm
          datasets={datasets.map((dataset) => ({ id: dataset.id, name: dataset.name, itemCount: dataset.itemCount }))}
          versions={versions.map((version) => ({ id: version.id, label: `${version.skillName} v${version.version}${version.note ? ` — ${version.note}` : ""}` }))}
          backends={backends.map((option) => ({ backend: option.backend as "openai" | "azure", label: option.label, configured: option.configured, detail: option.configured ? option.detail : option.hint, defaultModel: option.defaultModel }))}
          defaults={{
            skillVersionId: chosen !== undefined && versions.some((version) => version.id === chosen) ? String(chosen) : "",
            sourceDatasetId: dataset !== undefined && datasets.some((row) => row.id === dataset) ? String(dataset) : "",
            target: TARGET_DEFAULTS,
          }}
          presets={{ default: SKILLOPT_DEFAULT, paper: SKILLOPT_PAPER }}
        />
      )}
    </>
  );
}
