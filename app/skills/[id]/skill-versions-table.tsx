import Link from "@/app/_components/link";
import type { SkillVersionRecord } from "@/lib/db";
import { formatBytes, formatDateTime } from "@/app/_lib/format";
import { skillDownloadPath } from "./versions/[versionId]/download/skill-download";
import styles from "./skill-page.module.css";

type VersionRow = Omit<SkillVersionRecord, "content">;

/** Every version of a skill, newest first; the shown one is highlighted. */
export function SkillVersionsTable({ versions, selected }: { versions: VersionRow[]; selected: number }) {
  return (
    <table className={styles.versions}>
      <thead>
        <tr>
          <th>Version</th>
          <th>Created</th>
          <th>Note</th>
          <th className="num">Size</th>
          <th>Hash</th>
          <th>
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {versions.map((version) => {
          const isSelected = version.version === selected;
          return (
            <tr key={version.id} className={isSelected ? styles.selectedRow : undefined} aria-current={isSelected ? "true" : undefined}>
              <td>
                <Link href={`/skills/${version.skillId}?version=${version.version}`} scroll={false}>
                  v{version.version}
                </Link>
              </td>
              <td className={styles.nowrap}>{formatDateTime(version.createdAt)}</td>
              <td className={styles.note}>{version.note ?? <span className="muted">–</span>}</td>
              <td className="num">{formatBytes(version.sizeBytes)}</td>
              <td>
                <code title={version.hash}>{version.hash.slice(0, 10)}</code>
              </td>
              <td className={styles.nowrap}>
                <a href={skillDownloadPath(version)} aria-label={`Download version ${version.version} as .md`}>
                  Download .md
                </a>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
