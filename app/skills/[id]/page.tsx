import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { notFound } from "next/navigation";
import { getDb, getSkillVersion, getSkillWithVersions } from "@/lib/db";
import { parseIdParam } from "../../_lib/ids";
import { foundOrNotFound, idOrNotFound } from "../../_lib/not-found";
import { firstValue, type SearchParams } from "../../_lib/search-params";
import { formatBytes, formatDateTime } from "@/app/_lib/format";
import { CompareVersions } from "./compare-versions";
import { SkillVersionsTable } from "./skill-versions-table";
import styles from "./skill-page.module.css";
import { parseVersionTab, VersionTabs } from "./version-tabs";
import { VersionSelect } from "./version-select";
import { VersionLineage, VersionOrigin } from "./version-lineage";
import { skillDownloadPath } from "./versions/[versionId]/download/skill-download";

// Reads the database on every request.
export const dynamic = "force-dynamic";

interface SkillPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}

export async function generateMetadata({ params }: SkillPageProps): Promise<Metadata> {
  const id = parseIdParam((await params).id);
  if (id === undefined) return {};
  try {
    return { title: (await getSkillWithVersions(getDb(), id)).name };
  } catch {
    return {};
  }
}

export default async function SkillPage({ params, searchParams }: SkillPageProps) {
  const skill = await foundOrNotFound(getSkillWithVersions(getDb(), idOrNotFound((await params).id)));
  const query = await searchParams;
  const requested = parseIdParam(query.version);
  // Versions are newest first; an unknown ?version= shows the latest rather than an error page.
  const summary = skill.versions.find((version) => version.version === requested) ?? skill.versions[0];
  if (!summary) notFound();
  const version = await getSkillVersion(getDb(), summary.id);
  const tab = parseVersionTab(firstValue(query.tab));

  return (
    <>
      <p className={styles.breadcrumb}>
        <Link href="/skills">Skills</Link> /
      </p>
      <div className={styles.header}>
        <div>
          <h1 className={styles.title}>{skill.name}</h1>
          <p className="muted">
            {skill.versions.length} version{skill.versions.length === 1 ? "" : "s"} · latest v{skill.versions[0]?.version}
          </p>
        </div>
        <div>
          <Link className="button primary" href={`/runs/new?skillVersionId=${version.id}`}>
            New run with this version
          </Link>{" "}
          <Link className="button" href={`/optimize/new?skillVersionId=${version.id}`}>
            Optimise this skill
          </Link>
        </div>
      </div>

      <h2>Versions</h2>
      <SkillVersionsTable versions={skill.versions} selected={version.version} />
      <VersionLineage skillId={skill.id} versions={skill.versions} />
      <CompareVersions db={getDb()} skillId={skill.id} />

      <section className={`card ${styles.viewer}`} aria-labelledby="version-heading">
        <div className={styles.viewerHeader}>
          <h2 id="version-heading" className={styles.viewerTitle}>
            Version {version.version}
          </h2>
          <VersionSelect versions={skill.versions.map((item) => item.version)} selected={version.version} tab={tab} />
          <a className="button" href={skillDownloadPath(version)}>
            Download .md
          </a>
        </div>
        <p className={`muted ${styles.versionMeta}`}>
          {formatDateTime(version.createdAt)} · {formatBytes(version.sizeBytes)} · sha256 <code title={version.hash}>{version.hash.slice(0, 10)}</code>
          {version.note ? <> · {version.note}</> : null}
        </p>
        <VersionOrigin version={version} versions={skill.versions} />
        <VersionTabs skillId={skill.id} version={version} tab={tab} />
      </section>
    </>
  );
}
