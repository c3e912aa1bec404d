import { compareHref, neighboursInGroup, OUTCOME_LABELS, outcomeGroupsOf, wordChanges, type CompareQuery, type OutcomeGroup } from "@/lib/compare";
import { type Db, getStoredResult } from "@/lib/db";
import { highlightAnswer, splitAnswerTags, type TextSegment } from "@/lib/eval/answer-highlight";
import type { StoredItemResult } from "@/lib/runs/types";
import { ItemNav } from "@/app/_components/item-nav";
import { formatCount, formatLatency, formatScore } from "@/app/_lib/format";
import type { ComparedRun } from "./_lib/load-comparison";
import { visibleText } from "@/lib/text/visible-text";
import styles from "./compare.module.css";

function Marked({ segments, className }: { segments: { text: string; match?: boolean; changed?: boolean }[]; className: string | undefined }) {
  return <>{segments.map((segment, index) => (segment.match || segment.changed ? <mark key={index} className={className}>{visibleText(segment.text)}</mark> : <span key={index}>{visibleText(segment.text)}</span>))}</>;
}

/**
 * One item across the compared runs: question and gold answers once, then a column per run (reference first) with
 * its answer (tokens shared with the closest gold marked), scores and whole response; in the other runs' responses
 * the words the reference's response does not have are marked.
 */
export async function SideBySide({ db, runs, focus, query, ids }: {
  db: Db; runs: ComparedRun[]; focus: ComparedRun; query: CompareQuery & { group: OutcomeGroup; item: string }; ids: string[];
}) {
  const results = await Promise.all(runs.map(({ run }) => getStoredResult(db, run.id, query.item)));
  const known = results.find((result): result is StoredItemResult => result !== null);
  const label = OUTCOME_LABELS[query.group];
  const { prev, next, position } = neighboursInGroup(ids, query.item);
  const at = (item: string) => compareHref({ ...query, item, page: undefined });
  const listHref = compareHref({ ...query, item: undefined, page: position === null ? undefined : Math.ceil(position / 100) });
  const reference = results[0] ?? null;
  return (
    <div className={styles.sideBySide} aria-label="Item side by side" role="region">
      <ItemNav
        prevHref={prev === null ? null : at(prev)}
        nextHref={next === null ? null : at(next)}
        backHref={listHref}
        place={position === null ? `not in “${label}”` : `${formatCount(position)} of ${formatCount(ids.length)} · ${label}`}
      />
      {known ? (
        <div className={styles.itemHead}>
          <h3>Item <code>{query.item}</code></h3>
          <p className={styles.question}>{visibleText(known.question)}</p>
          <p><span className="muted">Gold answers:</span> {known.goldAnswers.map((gold, index) => <span key={index} className={styles.gold}>{visibleText(gold)}</span>)}</p>
        </div>
      ) : (
        <p className="muted">No run has a result for item {query.item}.</p>
      )}
      <div className={styles.columns} style={{ gridTemplateColumns: `repeat(${runs.length}, minmax(260px, 1fr))` }}>
        {runs.map(({ run }, index) => {
          const result = results[index] ?? null;
          const outcome = index > 0 && reference && result ? outcomeGroupsOf(reference, result)[0] : undefined;
          return (
            <article key={run.id} className={`${styles.column} ${run.id === focus.run.id ? styles.focusColumn : ""}`} aria-label={`Run #${run.id}`} data-testid={`column-${run.id}`}>
              <header className={styles.columnHead}>
                <strong>#{run.id}</strong> {run.skillName} v{run.skillVersion}
                {index === 0 ? <span className={styles.reference}>reference</span> : null}
                {outcome ? <span className={`${styles.outcome} ${styles[outcome]}`}>{OUTCOME_LABELS[outcome]}</span> : null}
              </header>
              {result ? <ResultColumn result={result} referenceResponse={index === 0 ? null : (reference?.response ?? null)} /> : <p className="muted">Not scored by this run.</p>}
            </article>
          );
        })}
      </div>
    </div>
  );
}

function ResultColumn({ result, referenceResponse }: { result: StoredItemResult; referenceResponse: string | null }) {
  const highlight = highlightAnswer(result.predictedAnswer, result.goldAnswers);
  const segments: TextSegment[] = highlight.predicted;
  return (
    <>
      <p className={styles.predicted} data-testid="compare-predicted">
        {result.predictedAnswer ? <Marked segments={segments} className={styles.match} /> : <span className="muted">(no answer)</span>}
      </p>
      <p className={styles.scores}>
        <span className={result.em >= 1 ? styles.right : styles.wrong}>EM {result.em >= 1 ? "1" : "0"}</span>
        <span>F1 {formatScore(result.f1)}</span>
        <span>sub-EM {result.subEm >= 1 ? "1" : "0"}</span>
        <span className={`badge ${result.status}`}>{result.status}</span>
        <span className="hint">{formatLatency(result.latencyMs)}</span>
      </p>
      {result.failReason && result.status !== "wrong" ? <p className="error-box">{visibleText(result.failReason)}</p> : null}
      <details open className={styles.response}>
        <summary>Full response{referenceResponse !== null ? <span className="hint"> (words not in the reference&apos;s response marked)</span> : null}</summary>
        <pre className={styles.pre} data-testid="compare-response">
          {referenceResponse !== null ? (
            <Marked segments={wordChanges(referenceResponse, result.response)} className={styles.inserted} />
          ) : (
            splitAnswerTags(result.response).map((segment, at) => (
              <span key={at} className={segment.kind === "text" ? undefined : styles.answerTag}>{visibleText(segment.text)}</span>
            ))
          )}
        </pre>
      </details>
    </>
  );
}
