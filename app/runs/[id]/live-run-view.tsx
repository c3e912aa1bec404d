"use client";

import { formatDateTime } from "@/app/_lib/format";
import type { RunLivePayload } from "../../_lib/live-payload";
import { FailureReasons, TokenUsage } from "./failure-reasons";
import { ProgressPanel } from "./progress-panel";
import { RunActions, type VersionChoice } from "./run-actions";
import { RunCharts } from "./run-charts";
import { TrialsPanel } from "./trials-panel";
import { WorkersPanel } from "./workers-panel";
import styles from "./run.module.css";
import { isActiveStatus, useRunLive } from "./use-run-live";

/** Everything on the run page that changes while the run goes; rendered first from the server's data, then polled. */
export function LiveRunView({ initial, versions }: { initial: RunLivePayload; versions: VersionChoice[] }) {
  const { data, isError, error } = useRunLive(initial.run.id, initial);
  const { run, stats, curve, failureReasons, cachedItems, cost, trials, workers } = data;
  // With repeated trials every count is of trials (item × trial), and the chart runs against trials completed.
  const unit = run.config.settings.trials > 1 ? "trials" : "items";
  const active = isActiveStatus(run.status);
  // A stopped run's rates are measured over its whole execution, however short: a sub-second run has a rate too.
  const measured = !active && stats.done > 0 && stats.elapsedSeconds > 0;

  return (
    <>
      <div className={styles.statusLine}>
        <span className={`badge ${run.status}`} data-testid="run-status">{run.status}</span>
        {run.cancelRequested ? <span className="muted">cancelling…</span> : null}
        <span className="muted">
          Started {formatDateTime(run.startedAt)}
          {run.finishedAt && !active ? ` · stopped ${formatDateTime(run.finishedAt)}` : ""}
        </span>
        <span className={`muted ${styles.liveNote}`} aria-live="polite">
          {isError ? `Live updates paused: ${error.message}` : active ? "updating live" : ""}
        </span>
      </div>
      {run.error ? <p className="error-box" role="alert">{run.error}</p> : null}
      <RunActions run={run} stats={stats} versions={versions} />
      <ProgressPanel stats={stats} active={active} queued={run.status === "queued"} measured={measured} unit={unit} />
      <WorkersPanel workers={workers} concurrency={run.config.settings.concurrency} />
      {trials ? <TrialsPanel runId={run.id} trials={trials} itemCount={Math.round(run.itemsTotal / trials.k)} /> : null}
      <RunCharts curve={curve} total={stats.total} unit={unit} />
      <div className={styles.twoColumns}>
        <FailureReasons reasons={failureReasons} />
        <TokenUsage run={run} stats={stats} measured={measured} cachedItems={cachedItems} cost={cost} />
      </div>
    </>
  );
}
