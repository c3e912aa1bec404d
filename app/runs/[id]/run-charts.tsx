"use client";

import { memo, useCallback, useMemo, useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { CurvePoint } from "@/lib/db";
import { formatLatency, formatScore } from "@/app/_lib/format";
import { niceTicks } from "../_lib/nice-ticks";
import styles from "./run.module.css";

// Fixed sizes: the charts redraw every second and must never shift the page around them.
const WIDTH = 520;
const HEIGHT = 260;
const MARGIN = { top: 8, right: 16, bottom: 4, left: 0 };
const SCORE_TICKS = [0, 0.25, 0.5, 0.75, 1];
const SCORE_DOMAIN: [number, number] = [0, 1];
const formatScoreValue = (value: unknown) => (typeof value === "number" ? formatScore(value) : String(value));
const formatLatencyValue = (value: unknown) => (typeof value === "number" ? formatLatency(value * 1000) : String(value));

function xDomain(total: number): [number, number] {
  // The whole run on the x axis from the start, so the line grows to the right instead of rescaling.
  return [0, Math.max(1, total)];
}

/** The latency chart's points (seconds) and its y axis, from the curve. */
function latencySeries(curve: CurvePoint[]) {
  const points = curve.map((point) => ({ n: point.n, latencyS: point.latencyMs / 1000 }));
  const ticks = niceTicks(Math.max(0, ...points.map((point) => point.latencyS)));
  return { points, ticks, domain: [0, ticks.at(-1) ?? 1] as [number, number] };
}

function EmptyChart({ text }: { text: string }) {
  return <div className={styles.emptyChart} style={{ width: WIDTH, height: HEIGHT }}>{text}</div>;
}

/**
 * Running EM and F1 (and sub-EM on request) against items completed, and each item's latency, from the server's
 * downsampled points. Memoised, with every prop recharts sees kept stable (module constants, or memoised on what they
 * depend on): recharts 3 keeps its charts in a store and re-dispatches on every new object or function it is handed,
 * and the run page renders this every second while a run goes.
 */
export const RunCharts = memo(function RunCharts({ curve, total, unit }: { curve: CurvePoint[]; total: number; unit: "items" | "trials" }) {
  const single = unit === "trials" ? "trial" : "item";
  const [showSubEm, setShowSubEm] = useState(false);
  const hasLine = curve.length >= 2;
  const domain = useMemo(() => xDomain(total), [total]);
  const latency = useMemo(() => latencySeries(curve), [curve]);
  const afterLabel = useCallback((n: unknown) => `after ${String(n)} ${unit}`, [unit]);
  const itemLabel = useCallback((n: unknown) => `${single} ${String(n)}`, [single]);

  return (
    <section className={styles.charts} aria-labelledby="running-accuracy-heading">
      <div className={`card ${styles.chartCard}`}>
        <div className={styles.chartHead}>
          <h2 id="running-accuracy-heading">Running accuracy by {unit} completed</h2>
          <label className={styles.toggle}>
            <input type="checkbox" checked={showSubEm} onChange={(event) => setShowSubEm(event.target.checked)} />
            Show sub-EM
          </label>
        </div>
        {hasLine ? (
          <LineChart width={WIDTH} height={HEIGHT} data={curve} margin={MARGIN}>
            <CartesianGrid stroke="#eef0f4" />
            <XAxis dataKey="n" type="number" domain={domain} allowDecimals={false} tickCount={6} />
            <YAxis domain={SCORE_DOMAIN} ticks={SCORE_TICKS} width={44} />
            <Tooltip isAnimationActive={false} formatter={formatScoreValue} labelFormatter={afterLabel} />
            <Legend verticalAlign="top" height={24} />
            <Line type="linear" dataKey="em" name="EM" stroke="#2855d8" strokeWidth={2} dot={false} isAnimationActive={false} />
            <Line type="linear" dataKey="f1" name="F1" stroke="#18794e" strokeWidth={2} dot={false} isAnimationActive={false} />
            {showSubEm ? <Line type="linear" dataKey="subEm" name="sub-EM" stroke="#c2410c" strokeWidth={2} dot={false} isAnimationActive={false} /> : null}
          </LineChart>
        ) : (
          <EmptyChart text={curve.length === 1 ? `One ${single} done; the curve starts with the second.` : `No ${unit} completed yet.`} />
        )}
      </div>
      <div className={`card ${styles.chartCard}`}>
        <div className={styles.chartHead}>
          <h2>Latency per {single} (s)</h2>
        </div>
        {hasLine ? (
          <LineChart width={WIDTH} height={HEIGHT} data={latency.points} margin={MARGIN}>
            <CartesianGrid stroke="#eef0f4" />
            <XAxis dataKey="n" type="number" domain={domain} allowDecimals={false} tickCount={6} />
            {/* Wider than the score axis: a fast run's ticks read "0.008". */}
            <YAxis domain={latency.domain} ticks={latency.ticks} width={52} />
            <Tooltip isAnimationActive={false} formatter={formatLatencyValue} labelFormatter={itemLabel} />
            <Legend verticalAlign="top" height={24} />
            <Line type="linear" dataKey="latencyS" name="latency" stroke="#7c3aed" strokeWidth={1.5} dot={false} isAnimationActive={false} />
          </LineChart>
        ) : (
          <EmptyChart text={`No ${unit} completed yet.`} />
        )}
      </div>
    </section>
  );
});
