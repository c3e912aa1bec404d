import Link from "@/app/_components/link";
import { verdict } from "@/lib/compare/summary";
import { formatCost, formatCount, formatInterval, formatLatency, formatPValue, formatScore, formatSigned, modelLabel } from "@/app/_lib/format";
import type { ComparedRun } from "./_lib/load-comparison";
import styles from "./compare.module.css";
import { meanOf } from "@/lib/runs/metrics";


/** Each run's own figures (over all the items it scored), the reference first. */
export function RunsTable({ runs }: { runs: ComparedRun[] }) {
  return (
    <table className={styles.summary} aria-label="Compared runs">
      <thead>
        <tr>
          <th>Run</th><th>Skill version</th><th>Model</th><th className="num">Items scored</th><th className="num">EM</th>
          <th className="num">F1</th><th className="num">sub-EM</th><th className="num">Errors</th><th className="num">Timeouts</th>
          <th className="num">Mean latency</th><th className="num">Tokens</th><th className="num">Cost</th>
        </tr>
      </thead>
      <tbody>
        {runs.map(({ run, cost }, index) => (
          <tr key={run.id}>
            <td>
              <Link href={`/runs/${run.id}`}>#{run.id}</Link>
              {run.name ? ` ${run.name}` : ""} {index === 0 ? <span className={styles.reference}>reference</span> : null}
              {run.status !== "completed" ? <> <span className={`badge ${run.status}`}>{run.status}</span></> : null}
            </td>
            <td><Link href={`/skills/${run.skillId}?version=${run.skillVersion}`}>{run.skillName} v{run.skillVersion}</Link></td>
            <td>{modelLabel(run)}</td>
            <td className="num">{formatCount(run.nDone)}</td>
            <td className="num">{formatScore(meanOf(run.emSum, run.nDone))}</td>
            <td className="num">{formatScore(meanOf(run.f1Sum, run.nDone))}</td>
            <td className="num">{formatScore(meanOf(run.subEmSum, run.nDone))}</td>
            <td className="num">{formatCount(run.nErrors)}</td>
            <td className="num">{formatCount(run.nTimeouts)}</td>
            <td className="num">{formatLatency(meanOf(run.latencyMsSum, run.nDone))}</td>
            <td className="num">{formatCount(run.promptTokens + run.completionTokens)}</td>
            <td className="num">{formatCost(cost.usd)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The reading of a difference on one line, and why on a second (as the other cells give the mean, then the interval). */
const VERDICTS = {
  better: ["EM better", "interval above 0"],
  worse: ["EM worse", "interval below 0"],
  inconclusive: ["no clear EM difference", "interval includes 0"],
  "no items": ["nothing to compare", "no item scored by both runs"],
} as const;

/** Each other run against the reference, over the items both scored: paired bootstrap intervals and McNemar on EM. */
export function DifferencesTable({ runs }: { runs: ComparedRun[] }) {
  const reference = runs[0]!.run;
  const others = runs.slice(1);
  return (
    <>
      <table className={styles.summary} aria-label="Differences from the reference">
        <thead>
          <tr>
            <th>Run</th><th className="num">Items compared</th><th className="num">ΔEM [95&nbsp;%&nbsp;CI]</th><th className="num">ΔF1 [95&nbsp;%&nbsp;CI]</th>
            <th className="num">Δsub-EM [95&nbsp;%&nbsp;CI]</th><th className="num">Fixed / broken</th><th className="num">McNemar p (EM)</th>
            <th className="num">ΔCost</th><th>Reading</th>
          </tr>
        </thead>
        <tbody>
          {others.map(({ run, difference, cost }) =>
            difference ? (
              <tr key={run.id} data-testid={`difference-${run.id}`}>
                <td className={styles.nowrap}><Link href={`/runs/${run.id}`}>#{run.id}</Link> {run.skillName} v{run.skillVersion}</td>
                <td className="num">{formatCount(difference.n)}</td>
                <td className={`num ${tone(difference.em)}`}>{formatSigned(difference.em.mean)} <span className={styles.ci}>{formatInterval(difference.em)}</span></td>
                <td className={`num ${tone(difference.f1)}`}>{formatSigned(difference.f1.mean)} <span className={styles.ci}>{formatInterval(difference.f1)}</span></td>
                <td className={`num ${tone(difference.subEm)}`}>{formatSigned(difference.subEm.mean)} <span className={styles.ci}>{formatInterval(difference.subEm)}</span></td>
                <td className="num">{formatCount(difference.outcomes.fixed)} / {formatCount(difference.outcomes.broken)}</td>
                <td className="num">{formatPValue(difference.mcnemarP)}</td>
                <td className="num">{formatCost(costDifference(cost.usd, runs[0]!.cost.usd), { signed: true })}</td>
                <td className={styles.nowrap}>
                  <span className={styles.reading}>{VERDICTS[verdict(difference)][0]}</span>
                  <span className={styles.ci}>{VERDICTS[verdict(difference)][1]}</span>
                </td>
              </tr>
            ) : null,
          )}
        </tbody>
      </table>
      <p className="hint">
        Differences are other run − reference (#{reference.id}) over the items both runs scored (errors and timeouts count as
        scored, EM 0). Intervals: paired percentile bootstrap, {formatCount(10_000)} resamples, fixed seed (the same page
        gives the same numbers). McNemar&apos;s exact test compares the fixed and broken counts. ΔCost is the whole runs&apos;
        cost (replies from the response cache cost nothing), unknown when either model has no known price.
      </p>
      <TrialsNote runs={runs} />
      {others.map(({ run, difference }) =>
        difference && (difference.onlyReference > 0 || difference.onlyOther > 0) ? (
          <p key={run.id} className="notice-box" role="note">
            Runs #{reference.id} and #{run.id} did not score the same items: {formatCount(difference.n)} are compared;{" "}
            {formatCount(difference.onlyReference)} only the reference scored and {formatCount(difference.onlyOther)} only #{run.id}{" "}
            scored are left out of the differences (the runs&apos; own EM above includes them).
          </p>
        ) : null,
      )}
    </>
  );
}

/** Other run − reference; unknown when either side is. */
function costDifference(other: number | null, reference: number | null): number | null {
  return other === null || reference === null ? null : other - reference;
}

function tone(interval: { low: number; high: number }): string {
  if (interval.low > 0) return styles.up ?? "";
  if (interval.high < 0) return styles.down ?? "";
  return "";
}

/** Runs with repeated trials are compared by item, on each item's mean over its trials: said where the numbers are. */
function TrialsNote({ runs }: { runs: ComparedRun[] }) {
  const repeated = runs.filter(({ run }) => run.config.settings.trials > 1);
  if (repeated.length === 0) return null;
  const which = repeated.map(({ run }) => `#${run.id} (${run.config.settings.trials} trials per item)`).join(", ");
  return (
    <p className="notice-box" role="note" data-testid="trials-note">
      {which}: runs with repeated trials are paired by item using each item&apos;s mean over its trials, and the bootstrap
      resamples items (not trials). For fixed / broken and McNemar an item counts as right only when all its trials are
      right. Answers listed below are each item&apos;s first trial.
    </p>
  );
}
