"use client";

import Link from "@/app/_components/link";
import { OptimizationStatusBadge } from "@/app/_components/optimization-status";
import { formatCost, formatCount, formatDuration, formatPValue, formatScore } from "@/app/_lib/format";
import type { OptimizationLivePayload, StageRow } from "@/app/_lib/optimization-payload";
import { DecisionPanel, OptimizationActions } from "./optimization-actions";
import { useOptimizationLive } from "./use-optimization-live";
import { TrainBatchChart, ValChart } from "./val-chart";
import styles from "./optimization.module.css";

const stepHref = (id: number, key: string) => `/optimize/${id}/steps/${encodeURIComponent(key)}`;

export function LiveOptimizationView({ initial }: { initial: OptimizationLivePayload }) {
  const { data, error } = useOptimizationLive(initial.optimization.id, initial);
  const { optimization: o, summary, stages, pendingKey, activeRuns, lineage, cost } = data;
  const running = o.status === "running" || o.status === "queued";
  const now = activeRuns.at(-1);
  const stage = now ? now.key : summary.lastKey;
  const targetInFlight = activeRuns.reduce((sum, run) => sum + run.inFlight, 0);
  return (
    <>
      <div className={styles.statusLine}>
        <OptimizationStatusBadge status={o.status} source={o.source} />
        {o.stopReason ? <span className="muted">{o.stopReason}</span> : null}
        {o.error ? <span className="error-box">{o.error}</span> : null}
        <span className={`muted ${styles.liveNote}`} aria-live="polite">{error ? `Live updates paused: ${error.message}` : running ? "Live: updates every second" : null}</span>
      </div>
      {pendingKey ? <DecisionPanel id={o.id} stepKey={pendingKey} /> : null}
      <OptimizationActions id={o.id} status={o.status} source={o.source} />

      <section className={`card ${styles.card}`} aria-label="Progress">
        <dl className={styles.tiles}>
          <div className={styles.tile}><dt>Epoch</dt><dd data-testid="progress-epoch">{summary.epoch} / {summary.settings.train?.num_epochs ?? "–"}</dd></div>
          <div className={styles.tile}><dt>Steps done</dt><dd data-testid="steps-done">{summary.done} / {summary.planned}</dd></div>
          <div className={styles.tile}><dt>Accepted</dt><dd>{summary.accepted}</dd></div>
          <div className={styles.tile}><dt>Val: initial → best</dt><dd>{formatScore(summary.initialVal)} → {formatScore(summary.bestVal)}</dd></div>
          <div className={styles.tile}><dt>Stage now</dt><dd title={stage ?? ""}>{running ? (stage ?? "starting") : "–"}</dd></div>
          <div className={styles.tile}>
            <dt>Calls in flight</dt>
            <dd data-testid="calls-in-flight">{running ? targetInFlight + o.optimizerInFlight : 0}</dd>
            <div className="hint" data-testid="calls-in-flight-split">target {running ? targetInFlight : 0} · optimizer {running ? o.optimizerInFlight : 0}</div>
          </div>
        </dl>
        {now && running ? <p className="hint">Running <Link href={`/runs/${now.runId}`}>{now.key}</Link>: {now.nDone} / {now.itemsTotal} items.</p> : null}
        {summary.test ? <p>Test: initial {formatScore(summary.test.initial)} · best {formatScore(summary.test.best)} · final {formatScore(summary.test.final)}</p> : null}
      </section>

      <div className={styles.charts}>
        <ValChart points={summary.points} planned={summary.planned} />
        <TrainBatchChart points={summary.points} planned={summary.planned} />
      </div>

      <section className={`card ${styles.card}`} aria-labelledby="spend-heading">
        <h2 id="spend-heading">Spend against caps</h2>
        <div className={styles.spend}>
          <SpendBar label="Target calls" value={o.targetCalls} cap={summary.caps.maxTargetCalls} format={formatCount} extra={`cost ${formatCost(cost.target)}`} />
          <SpendBar label="Optimizer tokens" value={o.optimizerTokens} cap={summary.caps.maxOptimizerTokens} format={formatCount} extra={`${formatCount(o.optimizerCalls)} calls · cost ${formatCost(cost.optimizer.usd)}`} />
          <SpendBar label="Wall time" value={summary.durationS ?? 0} cap={summary.caps.maxWallS} format={formatDuration} />
        </div>
        <p data-testid="spend-cost"><strong>Cost</strong>: {formatCost(cost.total)}{cost.total === null ? <span className="hint"> · {o.source === "imported" ? "not recorded in the imported directory" : "no price is known for a model it used (skillboard.config.json “prices”)"}</span> : null}</p>
      </section>

      <section className={`card ${styles.card}`} aria-labelledby="lineage-heading">
        <h2 id="lineage-heading">Version lineage</h2>
        <ol className={styles.lineage}>
          {lineage.map((version) => {
            const parent = lineage.find((candidate) => candidate.id === version.parentVersionId);
            const cls = version.accepted === false ? styles.rejected : version.id === o.bestVersionId ? styles.accepted : undefined;
            return (
              <li key={version.id}>
                <Link className={cls} href={`/skills/${o.skillId}?version=${version.version}`}>v{version.version}</Link>
                {parent ? <span className="hint"> ← v{parent.version}</span> : null}
                {version.originStepKey ? <span className="hint"> · {version.originStepKey}</span> : <span className="hint"> · initial</span>}
                {version.id === o.bestVersionId ? <span className="hint"> · best</span> : null}
                {version.accepted === false ? <span className="hint"> · rejected</span> : null}
              </li>
            );
          })}
        </ol>
      </section>

      <section className={`card ${styles.card}`} aria-labelledby="stages-heading">
        <h2 id="stages-heading">Stages</h2>
        {stages.length === 0 ? <p className="muted">No stage finished yet: the baseline val rollout comes first.</p> : <StageTable id={o.id} stages={stages} pendingKey={pendingKey} />}
      </section>
    </>
  );
}

function SpendBar({ label, value, cap, format, extra }: { label: string; value: number; cap: number | null; format: (value: number) => string; extra?: string }) {
  const fraction = cap ? Math.min(1, value / cap) : 0;
  return (
    <div>
      <strong>{label}</strong>: {format(value)}{cap ? ` of ${format(cap)}` : " (no cap)"}{extra ? <span className="hint"> · {extra}</span> : null}
      {cap ? <div className={styles.bar} aria-hidden="true"><div className={`${styles.barFill} ${fraction >= 1 ? styles.barOver : ""}`} style={{ width: `${(fraction * 100).toFixed(1)}%` }} /></div> : null}
    </div>
  );
}

const ACTION_LABELS: Record<string, string> = {
  accept_new_best: "accepted (new best)", accept: "accepted", force_accept: "force-accepted", reject: "rejected", skip_no_patches: "no patches",
  waiting_for_approval: "waiting for your decision", baseline: "baseline", final: "final",
};

function StageTable({ id, stages, pendingKey }: { id: number; stages: StageRow[]; pendingKey: string | null }) {
  return (
    <table aria-label="Stages">
      <thead>
        <tr>
          <th>Stage</th><th>Kind</th><th className="num">Epoch</th><th className="num">Train batch</th><th>Val: current → candidate</th>
          <th className="num">Edits / budget</th><th>Fixed / broken</th><th className="num">p</th><th>Decision</th>
        </tr>
      </thead>
      <tbody>
        {stages.map((stage) => (
          <tr key={stage.key} className={stage.key === pendingKey ? styles.current : undefined} data-testid="stage-row">
            <td><Link href={stepHref(id, stage.key)}>{stage.key}</Link></td>
            <td>{stage.kind.replaceAll("_", " ")}</td>
            <td className="num">{stage.epoch}</td>
            <td className="num">{formatScore(stage.trainBatch)}</td>
            <td>{stage.scoreBefore !== null ? <>{formatScore(stage.scoreBefore)} → {formatScore(stage.candidate)}</> : formatScore(stage.candidate)}</td>
            <td className="num">{stage.edits !== null ? `${stage.edits} / ${stage.editBudget ?? "–"}` : "–"}</td>
            <td>{stage.fixed !== null ? `+${stage.fixed} / −${stage.broken}` : "–"}</td>
            <td className="num">{stage.pValue !== null ? formatPValue(stage.pValue) : "–"}</td>
            <td>
              <span className={stage.accepted ? styles.accepted : undefined}>{stage.key === pendingKey ? ACTION_LABELS.waiting_for_approval : (ACTION_LABELS[stage.action ?? ""] ?? stage.action ?? "–")}</span>
              {stage.rule ? <span className="hint"> · {stage.rule}</span> : null}
              {stage.approval && stage.approval !== "pending" ? <span className="hint"> · {stage.approval} by you</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
