import type { LiveStats } from "@/lib/runs/live-stats";
import { formatCount, formatDuration, formatPercent, formatRate, formatScore } from "@/app/_lib/format";
import styles from "./run.module.css";

function Tile({ label, value, tone }: { label: string; value: string; tone?: "good" | "bad" | "warn" }) {
  return (
    <div className={`${styles.tile} ${tone ? styles[tone] : ""}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** Progress, rate, ETA, outcome counts and what the process is doing right now (so a slow run never looks stuck). */
export function ProgressPanel(props: { stats: LiveStats; active: boolean; queued: boolean; measured: boolean; unit: "items" | "trials" }) {
  const { stats, active, queued, measured, unit } = props;
  const eta = queued ? "waiting to start" : stats.etaSeconds === null ? (active ? "estimating…" : "–") : `~${formatDuration(stats.etaSeconds)}`;
  return (
    <section className={`card ${styles.progressCard}`} aria-label="Progress">
      <div className={styles.progressHead}>
        <span className={styles.doneCount} data-testid="items-done">
          {formatCount(stats.done)} / {formatCount(stats.total)} {unit}
        </span>
        <span className="muted">{formatPercent(stats.fraction)}</span>
      </div>
      <div
        className={styles.progressBar}
        role="progressbar"
        aria-label={unit === "trials" ? "Trials done" : "Items done"}
        aria-valuemin={0}
        aria-valuemax={stats.total}
        aria-valuenow={stats.done}
      >
        <div className={styles.progressFill} style={{ width: `${stats.fraction * 100}%` }} />
      </div>
      <dl className={styles.tiles}>
        <Tile label={`Rate (${unit}/min)`} value={formatRate(stats.itemsPerMinute, { measured })} />
        <Tile label="ETA" value={eta} />
        <Tile label="Elapsed" value={formatDuration(stats.elapsedSeconds)} />
        <Tile label="Tokens / s" value={formatRate(stats.tokensPerSecond, { measured })} />
        <Tile label="EM" value={formatScore(stats.em)} />
        <Tile label="F1" value={formatScore(stats.f1)} />
        <Tile label="Sub-EM" value={formatScore(stats.subEm)} />
      </dl>
      <dl className={styles.tiles}>
        <Tile label="Correct" value={formatCount(stats.correct)} tone="good" />
        <Tile label="Wrong" value={formatCount(stats.wrong)} tone="bad" />
        <Tile label="Errors" value={formatCount(stats.errors)} tone={stats.errors ? "bad" : undefined} />
        <Tile label="Timeouts" value={formatCount(stats.timeouts)} tone={stats.timeouts ? "warn" : undefined} />
        <Tile label="In flight now" value={stats.concurrencyLimit === null ? formatCount(stats.inFlight) : `${formatCount(stats.inFlight)} of limit ${formatCount(stats.concurrencyLimit)}`} />
        <Tile label="Retrying now" value={formatCount(stats.retrying)} tone={stats.retrying ? "warn" : undefined} />
        <Tile label="Rate-limited now" value={formatCount(stats.rateLimited)} tone={stats.rateLimited ? "warn" : undefined} />
      </dl>
    </section>
  );
}
