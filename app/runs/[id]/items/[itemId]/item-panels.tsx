import Link from "@/app/_components/link";
import type { ItemInOtherRun } from "@/lib/db";
import { highlightAnswer, type TextSegment } from "@/lib/eval/answer-highlight";
import type { ItemQuery } from "@/lib/runs/item-query";
import type { StoredItemResult } from "@/lib/runs/types";
import { formatCount, formatDateTime, formatLatency, formatScore, modelLabel } from "@/app/_lib/format";
import { itemHref } from "../../../_lib/item-links";
import { clipSegments, LIST_ITEMS, MoreCharacters, ShownText } from "../../../../_components/shown-text";
import { visibleText } from "@/lib/text/visible-text";
import styles from "./item.module.css";

/** How much of each text the item view renders: `max` characters (all when undefined), the rest behind `showAllHref`. */
export interface TextLimit {
  max: number | undefined;
  showAllHref?: string;
}

function Marked({ segments, texts }: { segments: TextSegment[]; texts: TextLimit }) {
  const clipped = clipSegments(segments, texts.max);
  return (
    <>
      {clipped.segments.map((segment, index) =>
        segment.match ? <mark key={index} className={styles.match}>{visibleText(segment.text)}</mark> : <span key={index}>{visibleText(segment.text)}</span>,
      )}
      {clipped.hidden > 0 ? <MoreCharacters hidden={clipped.hidden} moreHref={texts.showAllHref} /> : null}
    </>
  );
}

/** Question, gold answers, the prediction with the tokens it shares with the closest gold marked, scores, fail reason. */
export function AnswerSummary({ result, texts }: { result: StoredItemResult; texts: TextLimit }) {
  const highlight = highlightAnswer(result.predictedAnswer, result.goldAnswers);
  const golds = texts.max === undefined ? result.goldAnswers : result.goldAnswers.slice(0, LIST_ITEMS);
  return (
    <section className={`card ${styles.section}`} aria-label="Answer">
      <dl className={styles.answerGrid}>
        <div className={styles.wide}>
          <dt>Question</dt>
          <dd className={styles.question}><ShownText text={result.question} max={texts.max} moreHref={texts.showAllHref} /></dd>
        </div>
        <div>
          <dt>Gold answers</dt>
          <dd>
            <ul className={styles.golds}>
              {golds.map((gold, index) => (
                <li key={index}>
                  {index === highlight.closestGold && highlight.f1 > 0 ? (
                    <>
                      <Marked segments={highlight.gold} texts={texts} /> <span className={styles.closest}>closest (F1 {formatScore(highlight.f1)})</span>
                    </>
                  ) : (
                    <ShownText text={gold} max={texts.max} moreHref={texts.showAllHref} />
                  )}
                </li>
              ))}
            </ul>
            {golds.length < result.goldAnswers.length ? (
              <span className="muted">
                and {formatCount(result.goldAnswers.length - golds.length)} more (<a href={texts.showAllHref}>show all</a>)
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Predicted answer</dt>
          <dd className={styles.predicted} data-testid="predicted-answer">
            {result.predictedAnswer ? <Marked segments={highlight.predicted} texts={texts} /> : <span className="muted">(none)</span>}
          </dd>
        </div>
        <div className={styles.scores}>
          <dt>Scores</dt>
          <dd>
            <span className={result.em >= 1 ? styles.good : styles.bad}>EM {result.em >= 1 ? "1" : "0"}</span>
            <span>F1 {formatScore(result.f1)}</span>
            <span className={result.subEm >= 1 ? styles.good : undefined}>sub-EM {result.subEm >= 1 ? "1" : "0"}</span>
          </dd>
        </div>
        {result.failReason ? (
          <div className={styles.wide}>
            <dt>Fail reason</dt>
            <dd className={styles.failReason}><ShownText text={result.failReason} max={texts.max} moreHref={texts.showAllHref} /></dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

/** Latency, tokens, attempts and retries, start and finish. */
export function ItemFacts({ result }: { result: StoredItemResult }) {
  const facts: [string, string][] = [
    ["Latency", formatLatency(result.latencyMs)],
    ["Turns", String(result.nTurns)],
    ["Prompt tokens", formatCount(result.promptTokens)],
    ["Completion tokens", formatCount(result.completionTokens)],
    ["Attempts", formatCount(result.attempts)],
    ["Retries", formatCount(result.retries)],
    ["Rate-limited (429)", formatCount(result.rateLimited)],
    ["Started", formatDateTime(result.startedAt)],
    ["Finished", formatDateTime(result.finishedAt)],
    ["Completed as", `#${formatCount(result.seq)} of the run`],
  ];
  return (
    <section className={`card ${styles.section}`} aria-label="Item details">
      {result.cachedFromRunId ? (
        <p className="notice-box" role="note" data-testid="cached-reply">
          The model&apos;s reply came from the response cache (no model call, no tokens): it was first produced by{" "}
          <Link href={`/runs/${result.cachedFromRunId}`}>run #{result.cachedFromRunId}</Link>.
        </p>
      ) : null}
      <dl className={styles.facts}>
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The same dataset item in other runs, each link opening it there with the same view. */
export function OtherRuns({ itemId, others, query }: { itemId: string; others: ItemInOtherRun[]; query: Omit<ItemQuery, "page"> }) {
  return (
    <section className={`card ${styles.section}`} aria-labelledby="other-runs-heading">
      <h2 id="other-runs-heading">This item in other runs on the dataset</h2>
      {others.length === 0 ? (
        <p className="muted">No other run on this dataset has a result for it yet.</p>
      ) : (
        <table className={styles.others}>
          <thead>
            <tr>
              <th>Run</th>
              <th>Skill version</th>
              <th>Model</th>
              <th>Result</th>
              <th className="num">EM</th>
              <th className="num">F1</th>
            </tr>
          </thead>
          <tbody>
            {others.map((other) => (
              <tr key={other.runId}>
                <td>
                  <Link href={itemHref(other.runId, itemId, { filter: "all", sort: query.sort, dir: query.dir })}>
                    #{other.runId}{other.runName ? ` ${other.runName}` : ""}
                  </Link>{" "}
                  <span className={`badge ${other.runStatus}`}>{other.runStatus}</span>
                </td>
                <td>{other.skillName} v{other.skillVersion}</td>
                <td>{modelLabel(other)}</td>
                <td><span className={`badge ${other.status}`}>{other.status}</span></td>
                <td className="num">{other.em >= 1 ? "1" : other.em > 0 ? formatScore(other.em) : "0"}</td>
                <td className="num">{formatScore(other.f1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
