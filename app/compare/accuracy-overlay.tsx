"use client";

import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { CurvePoint } from "@/lib/db";
import { formatScore } from "@/app/_lib/format";
import styles from "./compare.module.css";

const COLORS = ["#64748b", "#2855d8", "#18794e", "#c2410c", "#7c3aed", "#be123c", "#0e7490", "#a16207"];

export interface OverlaySeries {
  runId: number;
  label: string;
  curve: CurvePoint[];
}

/** Running EM against items completed, one line per run (the reference grey), on a shared x axis. */
export function AccuracyOverlay({ series }: { series: OverlaySeries[] }) {
  const maxN = Math.max(1, ...series.flatMap((entry) => entry.curve.map((point) => point.n)));
  return (
    // Responsive: as wide as the card (a fixed width left much of a wide card empty, and overflowed a narrow one).
    <LineChart responsive style={{ width: "100%", height: 280 }} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} className={styles.chart}>
      <CartesianGrid stroke="#eef0f4" />
      <XAxis dataKey="n" type="number" domain={[0, maxN]} allowDecimals={false} tickCount={6} />
      <YAxis domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} width={44} />
      <Tooltip isAnimationActive={false} formatter={(value) => (typeof value === "number" ? formatScore(value) : String(value))} labelFormatter={(n) => `after ${String(n)} items`} />
      <Legend verticalAlign="top" height={24} />
      {series.map((entry, index) => (
        <Line
          key={entry.runId} data={entry.curve} type="linear" dataKey="em" name={entry.label} stroke={COLORS[index % COLORS.length]}
          strokeWidth={index === 0 ? 2.5 : 2} strokeDasharray={index === 0 ? "6 3" : undefined} dot={false} isAnimationActive={false}
        />
      ))}
    </LineChart>
  );
}
