import Link from "@/app/_components/link";
import type { SkillVersionRecord } from "@/lib/db";

type Version = Omit<SkillVersionRecord, "content">;

/** Where a version came from: the optimisation and step that proposed it, with a link there. */
export function VersionOrigin({ version, versions }: { version: Version; versions: Version[] }) {
  if (version.originOptimizationId === null) return null;
  const parent = versions.find((candidate) => candidate.id === version.parentVersionId);
  const step = version.originStepKey?.replace(/\/edited$/, "") ?? null;
  return (
    <p data-testid="version-origin">
      Made by <Link href={`/optimize/${version.originOptimizationId}`}>optimisation #{version.originOptimizationId}</Link>
      {step ? <> · <Link href={`/optimize/${version.originOptimizationId}/steps/${encodeURIComponent(step)}`}>{version.originStepKey}</Link></> : null}
      {parent ? <> · from v{parent.version}</> : null}
    </p>
  );
}

/** The skill's versions as a tree of parents: which optimisation step made which version from which. */
export function VersionLineage({ skillId, versions }: { skillId: number; versions: Version[] }) {
  const made = versions.filter((version) => version.parentVersionId !== null);
  if (made.length === 0) return null;
  const byId = new Map(versions.map((version) => [version.id, version]));
  return (
    <section aria-labelledby="lineage-heading">
      <h2 id="lineage-heading">Lineage</h2>
      <ul>
        {[...made].sort((a, b) => a.version - b.version).map((version) => {
          const parent = byId.get(version.parentVersionId!);
          return (
            <li key={version.id}>
              <Link href={`/skills/${skillId}?version=${version.version}`}>v{version.version}</Link> ← {parent ? <Link href={`/skills/${skillId}?version=${parent.version}`}>v{parent.version}</Link> : "a deleted version"}
              {version.originOptimizationId !== null ? <span className="hint"> · <Link href={`/optimize/${version.originOptimizationId}`}>optimisation #{version.originOptimizationId}</Link> {version.originStepKey}</span> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
