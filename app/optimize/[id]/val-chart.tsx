"use client";

import { CartesianGrid, ComposedChart, ErrorBar, Legend, Line, LineChart, Scatter, Tooltip, XAxis, YAxis } from "recharts";
import { formatScore } from "@/app/_lib/format";
import type { ValPoint } from "@/lib/optimize/overview";
import styles from "./optimization.module.css";

// Fixed sizes: the charts redraw on every poll and must never shift the page around them.
const WIDTH = 540;
const HEIGHT = 270;
const MARGIN = { top: 8, right: 16, bottom: 4, left: 0 };
const SCORE_TICKS = [0, 0.25, 0.5, 0.75, 1];

const formatValue = (value: unknown) => (typeof value === "number" ? formatScore(value) : Array.isArray(value) ? value.map((v) => formatScore(Number(v))).join(" – ") : String(value));

function Empty({ text }: { text: string }) {
  return <div className={styles.emptyChart} style={{ width: WIDTH, height: HEIGHT }}>{text}</div>;
}

/** The val score of the current and best skill against steps; each step's candidate marked accepted or rejected, with the bootstrap interval. */
export function ValChart({ points, planned }: { points: ValPoint[]; planned: number }) {
  const candidates = points.filter((point) => point.candidate !== null).map((point) => ({
    step: point.step, candidate: point.candidate!, accepted: point.accepted,
    interval: point.low !== null && point.high !== null ? [Math.max(0, point.candidate! - point.low), Math.max(0, point.high - point.candidate!)] : [0, 0],
  }));
  const domain: [number, number] = [0, Math.max(1, planned, ...points.map((point) => point.step))];
  return (
    <section className={`card ${styles.chartCard}`} aria-labelledby="val-heading">
      <h2 id="val-heading">Validation score by step</h2>
      {points.length === 0 ? <Empty text="The baseline val score comes first." /> : (
        <ComposedChart width={WIDTH} height={HEIGHT} data={points} margin={MARGIN}>
          <CartesianGrid stroke="#eef0f4" />
          <XAxis dataKey="step" type="number" domain={domain} allowDecimals={false} />
          <YAxis domain={[0, 1]} ticks={SCORE_TICKS} width={44} />
          <Tooltip isAnimationActive={false} formatter={formatValue} labelFormatter={(step) => `step ${String(step)}`} />
          <Legend verticalAlign="top" height={24} />
          <Line type="stepAfter" dataKey="current" name="current" stroke="#2855d8" strokeWidth={2} dot={false} isAnimationActive={false} connectNulls />
          <Line type="stepAfter" dataKey="best" name="best" stroke="#18794e" strokeWidth={2} strokeDasharray="5 3" dot={false} isAnimationActive={false} connectNulls />
          {/* Only for the tooltip: the candidate's score at the hovered step (the scatter series carry their x too). */}
          <Line dataKey="candidate" name="candidate" stroke="none" dot={false} activeDot={false} legendType="none" isAnimationActive={false} />
          <Scatter data={candidates.filter((point) => point.accepted)} dataKey="candidate" name="candidate accepted" fill="#18794e" tooltipType="none" isAnimationActive={false}>
            <ErrorBar dataKey="interval" direction="y" width={4} stroke="#18794e" />
          </Scatter>
          <Scatter data={candidates.filter((point) => !point.accepted)} dataKey="candidate" name="candidate rejected" fill="#c2410c" shape="cross" tooltipType="none" isAnimationActive={false}>
            <ErrorBar dataKey="interval" direction="y" width={4} stroke="#c2410c" />
          </Scatter>
        </ComposedChart>
      )}
      <p className="hint">Bars: the candidate&apos;s score with the 95% paired bootstrap interval of its difference from the current skill.</p>
    </section>
  );
}

/** The train batch's score (rollout with the current skill) per step. */
export function TrainBatchChart({ points, planned }: { points: ValPoint[]; planned: number }) {
  const data = points.filter((point) => point.trainBatch !== null);
  return (
    <section className={`card ${styles.chartCard}`} aria-labelledby="train-heading">
      <h2 id="train-heading">Train batch score by step</h2>
      {data.length === 0 ? <Empty text="No step has rolled out its batch yet." /> : (
        <LineChart width={WIDTH} height={HEIGHT} data={data} margin={MARGIN}>
          <CartesianGrid stroke="#eef0f4" />
          <XAxis dataKey="step" type="number" domain={[0, Math.max(1, planned)]} allowDecimals={false} />
          <YAxis domain={[0, 1]} ticks={SCORE_TICKS} width={44} />
          <Tooltip isAnimationActive={false} formatter={formatValue} labelFormatter={(step) => `step ${String(step)}`} />
          <Legend verticalAlign="top" height={24} />
          <Line type="linear" dataKey="trainBatch" name="train batch (hard)" stroke="#7c3aed" strokeWidth={2} isAnimationActive={false} />
        </LineChart>
      )}
    </section>
  );
}
