/** Display formatting shared by the run pages (server and client): pure, locale-independent, so SSR and hydration agree. */

export const BASELINE_LABEL = "offline baseline (no LLM)";

export function modelLabel(run: { backend: string; model: string }): string {
  if (run.backend === "baseline") return BASELINE_LABEL;
  // An agent run's model column is "<agent>" or "<agent>/<model>".
  if (run.backend === "agent") return `${run.model} (agent)`;
  return run.backend === "azure" ? `${run.model} (Azure)` : run.model;
}

export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : value.toFixed(3);
}

export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(fraction > 0 && fraction < 0.1 ? 1 : 0)}%`;
}

export function formatCount(value: number): string {
  return Math.round(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export function formatRate(value: number): string {
  if (value === 0) return "–";
  return value >= 100 ? formatCount(value) : value.toFixed(1);
}

/** 75 → "1m 15s", 3725 → "1h 02m"; null → "–". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "–";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** "2026-03-01 10:04" in UTC: the same text on the server and in any browser. */
export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "–";
  const iso = (typeof value === "string" ? new Date(value) : value).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** A latency in ms: seconds with two decimals under a minute ("1.25 s"), then minutes ("2m 05s"). */
export function formatLatency(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(2)} s`;
  return formatDuration(seconds);
}
