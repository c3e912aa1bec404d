import type { Metadata } from "next";
import Link from "@/app/_components/link";
import { getDb, listSkillViews } from "@/lib/db";
import { formatDateTime, formatScore } from "@/app/_lib/format";
import { SkillUploadForm } from "./skill-upload-form";
import styles from "./skills.module.css";

// Reads the database on every request.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Skills" };

export default async function SkillsPage() {
  const skills = await listSkillViews(getDb());
  return (
    <>
      <h1>Skills</h1>
      <div className={styles.layout}>
        <section aria-labelledby="skill-list-heading">
          <h2 id="skill-list-heading" className={styles.firstHeading}>
            All skills
          </h2>
          {skills.length === 0 ? (
            <p className="muted">No skills yet. Upload a skill document to get started.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>Skill</th>
                  <th>Latest version</th>
                  <th className="num">Versions</th>
                  <th className="num">Best EM</th>
                  <th>Updated</th>
                </tr>
              </thead>
              <tbody>
                {skills.map((skill) => (
                  <tr key={skill.id}>
                    <td className={styles.nameCell}>
                      <Link href={`/skills/${skill.id}`}>{skill.name}</Link>
                    </td>
                    <td>
                      <Link href={`/skills/${skill.id}?version=${skill.latestVersion}`}>v{skill.latestVersion}</Link>
                    </td>
                    <td className="num">{skill.versionCount}</td>
                    <td className="num" title="Best exact match reached by any run of any version">
                      {formatScore(skill.bestEm)}
                    </td>
                    <td className="muted">{formatDateTime(skill.latestAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section aria-labelledby="skill-upload-heading" className="card">
          <h2 id="skill-upload-heading" className={styles.firstHeading}>
            Upload a skill version
          </h2>
          <SkillUploadForm skillNames={skills.map((skill) => skill.name)} />
        </section>
      </div>
    </>
  );
}
