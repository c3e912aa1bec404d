import Link from "@/app/_components/link";
import { compareHref, itemsInGroup, OUTCOME_GROUPS, OUTCOME_LABELS, type CompareQuery, type OutcomeGroup } from "@/lib/compare";
import { type Db, getItemAnswers } from "@/lib/db";
import { formatCount, formatScore } from "@/app/_lib/format";
import type { ComparedRun } from "./_lib/load-comparison";
import styles from "./compare.module.css";
import { GroupButtons } from "./group-buttons";
import { SideBySide } from "./side-by-side";
import { CELL_TEXT_CHARS, ShownText } from "../_components/shown-text";

const PAGE_SIZE = 100;
const TONES: Record<OutcomeGroup, "good" | "bad" | "neutral"> = {
  fixed: "good", broken: "bad", "both-right": "neutral", "both-wrong": "neutral", "f1-up": "good", "f1-down": "bad",
};

/** Per-item outcomes of one run against the reference: counts as buttons, a group's list, or one item side by side. */
export async function OutcomeSection({ db, runs, focus, query }: { db: Db; runs: ComparedRun[]; focus: ComparedRun; query: CompareQuery }) {
  const reference = runs[0]!.run;
  const { paired, difference } = focus;
  if (!paired || !difference) return null;
  const counts: Record<OutcomeGroup, number> = {
    fixed: difference.outcomes.fixed, broken: difference.outcomes.broken, "both-right": difference.outcomes.bothRight,
    "both-wrong": difference.outcomes.bothWrong, "f1-up": difference.outcomes.f1Up, "f1-down": difference.outcomes.f1Down,
  };
  const base = { runIds: query.runIds, vs: query.vs, diff: query.diff };
  const groups = OUTCOME_GROUPS.map((group) => ({
    label: OUTCOME_LABELS[group], count: counts[group], pressed: query.group === group, tone: TONES[group],
    href: query.group === group && query.item === undefined ? compareHref(base) : compareHref({ ...base, group }),
  }));
  const ids = query.group ? itemsInGroup(paired, query.group) : [];

  return (
    <section className={`card ${styles.section}`} aria-labelledby="outcomes-heading" id="outcomes">
      <h2 id="outcomes-heading">Per-item outcomes: #{focus.run.id} against the reference #{reference.id}</h2>
      {runs.length > 2 ? (
        <p className={styles.vsPicker}>
          Against the reference:{" "}
          {runs.slice(1).map(({ run }) => (
            <Link key={run.id} href={compareHref({ runIds: query.runIds, vs: run.id, diff: query.diff })} aria-current={run.id === focus.run.id ? "true" : undefined}>
              #{run.id} {run.skillName} v{run.skillVersion}
            </Link>
          ))}
        </p>
      ) : null}
      <p className="hint">
        {formatCount(difference.n)} items both runs scored. Fixed: wrong in the reference, right in #{focus.run.id}; broken: the
        reverse. F1 up / down: among the items wrong in both, F1 moved.
      </p>
      <GroupButtons groups={groups} />
      {query.group && query.item !== undefined ? (
        <SideBySide db={db} runs={runs} focus={focus} query={{ ...query, group: query.group, item: query.item }} ids={ids} />
      ) : query.group ? (
        <GroupList db={db} referenceId={reference.id} focusId={focus.run.id} group={query.group} ids={ids} query={query} />
      ) : null}
    </section>
  );
}

async function GroupList({ db, referenceId, focusId, group, ids, query }: {
  db: Db; referenceId: number; focusId: number; group: OutcomeGroup; ids: string[]; query: CompareQuery;
}) {
  const pages = Math.max(1, Math.ceil(ids.length / PAGE_SIZE));
  const page = Math.min(query.page, pages);
  const shown = ids.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const [before, after] = await Promise.all([getItemAnswers(db, referenceId, shown), getItemAnswers(db, focusId, shown)]);
  const label = OUTCOME_LABELS[group];
  if (ids.length === 0) return <p className="muted">No items in “{label}”.</p>;
  return (
    <>
      <h3 className={styles.listHeading}>
        {label}: {formatCount(ids.length)} item{ids.length === 1 ? "" : "s"}
        {pages > 1 ? <span className="hint"> · page {page} of {pages}</span> : null}
      </h3>
      <table className={styles.outcomeList} aria-label={`${label} items`}>
        <thead>
          <tr>
            <th>Item</th><th>Question</th><th>Reference #{referenceId} answer</th><th>#{focusId} answer</th><th className="num">F1</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((itemId) => {
            const a = before.get(itemId);
            const b = after.get(itemId);
            return (
              <tr key={itemId}>
                <td className={styles.nowrap}><Link href={compareHref({ ...query, group, item: itemId, page: undefined })}>{itemId}</Link></td>
                <td className={`${styles.text} ${styles.clip}`}>{a ? <ShownText text={a.question} max={CELL_TEXT_CHARS} /> : null}</td>
                <td className={`${styles.text} ${a && a.em >= 1 ? styles.right : styles.wrong}`}>{a?.predictedAnswer || <span className="muted">(none)</span>}</td>
                <td className={`${styles.text} ${b && b.em >= 1 ? styles.right : styles.wrong}`}>{b?.predictedAnswer || <span className="muted">(none)</span>}</td>
                <td className={`num ${styles.nowrap}`}>{formatScore(a?.f1)} → {formatScore(b?.f1)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {pages > 1 ? (
        <p className={styles.pager}>
          {page > 1 ? <Link href={compareHref({ ...query, group, item: undefined, page: page - 1 })}>← Previous page</Link> : null}
          {page < pages ? <Link href={compareHref({ ...query, group, item: undefined, page: page + 1 })}>Next page →</Link> : null}
        </p>
      ) : null}
    </>
  );
}
