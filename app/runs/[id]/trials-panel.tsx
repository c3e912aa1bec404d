import Link from "@/app/_components/link";
import type { TrialSummary } from "@/lib/runs/trials";
import { formatCount, formatScore } from "@/app/_lib/format";
import { explorerHref } from "../_lib/item-links";
import styles from "./run.module.css";

/**
 * A run with repeated trials: how consistent each item is, pass@k and pass^k for EM (over the items whose k trials are
 * done), and the EM as a mean of item means with its standard error over items (trials of one item are not
 * independent samples of the run, so the error is taken from the items).
 */
export function TrialsPanel({ runId, trials, itemCount }: { runId: number; trials: TrialSummary; itemCount: number }) {
  const { k } = trials;
  const flakyHref = explorerHref(runId, { filter: "flaky", sort: "item", dir: "asc", page: 1 });
  const se = trials.em.standardError === null ? "" : ` ± ${formatScore(trials.em.standardError)}`;
  return (
    <section className={`card ${styles.progressCard}`} aria-labelledby="trials-heading">
      <h2 id="trials-heading">Repeated trials: {k} per item</h2>
      <dl className={styles.tiles}>
        <div className={`${styles.tile} ${styles.good}`}>
          <dt>Always right</dt>
          <dd>{formatCount(trials.alwaysRight)}</dd>
        </div>
        <div className={`${styles.tile} ${styles.bad}`}>
          <dt>Always wrong</dt>
          <dd>{formatCount(trials.alwaysWrong)}</dd>
        </div>
        <div className={`${styles.tile} ${trials.flaky ? styles.warn : ""}`}>
          <dt>Flaky (sometimes right)</dt>
          <dd>{trials.flaky > 0 ? <Link href={flakyHref}>{formatCount(trials.flaky)}</Link> : formatCount(trials.flaky)}</dd>
        </div>
        <div className={styles.tile}>
          <dt title="the chance that at least one of k trials is right (EM)">pass@{k}</dt>
          <dd>{formatScore(trials.passAtK)}</dd>
        </div>
        <div className={styles.tile}>
          <dt title="the chance that all k trials are right (EM)">pass^{k}</dt>
          <dd>{formatScore(trials.passHatK)}</dd>
        </div>
        <div className={styles.tile}>
          <dt title="the mean of each item's share of right trials, ± its standard error over items">EM (item means)</dt>
          <dd>{formatScore(trials.em.mean)}{se}</dd>
        </div>
        <div className={styles.tile}>
          <dt>Items with all {k} trials</dt>
          <dd>{formatCount(trials.complete)} / {formatCount(itemCount)}</dd>
        </div>
      </dl>
    </section>
  );
}
