import Link from "@/app/_components/link";
import { diffSkillTexts, toSplitRows, type DiffLine } from "@/lib/compare";
import type { SkillVersionRecord } from "@/lib/db";
import styles from "./skill-diff.module.css";

export type DiffLayout = "unified" | "split";

function LineText({ line }: { line: DiffLine }) {
  const mark = line.kind === "added" ? styles.wordAdded : styles.wordRemoved;
  return <>{line.segments.map((segment, index) => (segment.changed && line.kind !== "same" ? <mark key={index} className={mark}>{segment.text}</mark> : <span key={index}>{segment.text}</span>))}</>;
}

const SIGN = { same: " ", added: "+", removed: "−" } as const;

/**
 * The two skill versions' texts: a line diff with word-level highlights, unified or side by side (in the URL: the
 * page says how to link each layout). Used by the compare page and an optimisation's step page.
 */
export function SkillDiffView({ before, after, layout, layoutHref, sameText = "Both runs used the same skill version" }: {
  before: SkillVersionRecord; after: SkillVersionRecord; layout: DiffLayout; layoutHref: (layout: DiffLayout) => string; sameText?: string;
}) {
  const title = `${before.skillName} v${before.version} → ${after.skillName} v${after.version}`;
  if (before.id === after.id) {
    return (
      <section className={`card ${styles.section}`} aria-labelledby="skill-diff-heading" id="skill-diff">
        <h2 id="skill-diff-heading">Skill diff</h2>
        <p className="muted">{sameText} ({before.skillName} v{before.version}): the texts are identical.</p>
      </section>
    );
  }
  const diff = diffSkillTexts(before.content, after.content);
  const other = layout === "split" ? "unified" : "split";
  return (
    <section className={`card ${styles.section}`} aria-labelledby="skill-diff-heading" id="skill-diff">
      <div className={styles.diffHead}>
        <h2 id="skill-diff-heading">Skill diff: {title}</h2>
        <p className={styles.diffCounts} data-testid="diff-counts">
          <span className={`${styles.addedCount} ${diff.added === 0 ? styles.none : ""}`}>+{diff.added} line{diff.added === 1 ? "" : "s"} added</span>{" "}
          <span className={`${styles.removedCount} ${diff.removed === 0 ? styles.none : ""}`}>−{diff.removed} line{diff.removed === 1 ? "" : "s"} removed</span>
        </p>
        <nav aria-label="Diff layout" className={styles.diffLayout}>
          <Link href={`${layoutHref("unified")}#skill-diff`} aria-current={layout === "unified" ? "true" : undefined} scroll={false}>Unified</Link>
          <Link href={`${layoutHref("split")}#skill-diff`} aria-current={layout === "split" ? "true" : undefined} scroll={false}>Side by side</Link>
          <span className="visually-hidden">(shown: {layout === "split" ? "side by side" : "unified"}; other: {other})</span>
        </nav>
      </div>
      <details className={styles.diffDetails} open={diff.added + diff.removed <= 400}>
        <summary>Show the diff</summary>
        {layout === "split" ? (
          <table className={`${styles.diffTable} ${styles.split}`} aria-label="Skill diff, side by side">
            <colgroup><col className={styles.numCol} /><col /><col className={styles.numCol} /><col /></colgroup>
            <tbody>
              {toSplitRows(diff.lines).map((row, index) => (
                <tr key={index}>
                  <td className={styles.lineNo}>{row.left?.oldNumber ?? ""}</td>
                  <td className={`${styles.code} ${row.left ? styles[row.left.kind] : styles.blank}`}>{row.left ? <LineText line={row.left} /> : null}</td>
                  <td className={styles.lineNo}>{row.right?.newNumber ?? ""}</td>
                  <td className={`${styles.code} ${row.right ? styles[row.right.kind] : styles.blank}`}>{row.right ? <LineText line={row.right} /> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <table className={styles.diffTable} aria-label="Skill diff, unified">
            <tbody>
              {diff.lines.map((line, index) => (
                <tr key={index} className={styles[line.kind]}>
                  <td className={styles.lineNo}>{line.oldNumber ?? ""}</td>
                  <td className={styles.lineNo}>{line.newNumber ?? ""}</td>
                  <td className={styles.sign} aria-hidden="true">{SIGN[line.kind]}</td>
                  <td className={styles.code}><LineText line={line} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
    </section>
  );
}
