/**
 * How every page shows numbers, times, scores and model names. Pure and locale-independent (no time zone, no
 * locale of the machine), so the server's HTML and the browser's hydration render the same text.
 */

// ------------------------------------------------------------------------------------------------ counts and sizes

/** Thousands separators, so "48213" reads as "48,213" (rounded to a whole number). */
export function formatCount(value: number): string {
  return Math.round(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** "812 B", "14.2 KB", "3.4 MB" (binary units, as file managers show sizes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(fraction > 0 && fraction < 0.1 ? 1 : 0)}%`;
}

/**
 * A rate (items per minute, tokens per second). While a run goes, 0 means "not measured yet" and shows as an en
 * dash; a stopped run's rates are `measured` over its whole execution, so a 0 there is a real 0.
 */
export function formatRate(value: number, { measured = false }: { measured?: boolean } = {}): string {
  if (value === 0) return measured ? "0" : "–";
  return value >= 100 ? formatCount(value) : value.toFixed(1);
}

// ------------------------------------------------------------------------------------------------ scores and differences

/** A 0–1 score with three decimals, or an en dash when there is none. */
export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(3);
}

/** A difference with its sign ("+0.133", "-0.050"); a difference that rounds to zero is "0.000". */
export function formatSigned(value: number): string {
  if (!Number.isFinite(value)) return "–";
  const fixed = value.toFixed(3);
  return value > 0 && fixed !== "0.000" ? `+${fixed}` : fixed === "-0.000" ? "0.000" : fixed;
}

export function formatInterval(interval: { low: number; high: number }): string {
  return `[${formatSigned(interval.low)}, ${formatSigned(interval.high)}]`;
}

export function formatPValue(p: number): string {
  if (!Number.isFinite(p)) return "–";
  if (p < 0.001) return "< 0.001";
  return p >= 0.1 ? p.toFixed(2) : p.toFixed(3);
}

// ------------------------------------------------------------------------------------------------ times

/**
 * A duration: "0.4 s" under a second (a fast run is not "0s"), then "45s", "1m 15s", "1h 02m"; null → "–".
 * Exactly zero is "0s" (nothing has run yet).
 */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "–";
  if (seconds > 0 && seconds < 0.95) return `${seconds < 0.095 ? seconds.toFixed(2) : seconds.toFixed(1)} s`;
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** A latency in ms: seconds with two decimals under a minute ("1.25 s"), then minutes ("2m 05s"); "–" when unknown. */
export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "–";
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(2)} s`;
  return formatDuration(seconds);
}

/**
 * "2026-12-01 10:04 UTC": every date on every page is shown in UTC with the zone written out, so the server's
 * HTML, any browser and any two pages agree. Null → "–".
 */
export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "–";
  const iso = (typeof value === "string" ? new Date(value) : value).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

// ------------------------------------------------------------------------------------------------ models

export const BASELINE_LABEL = "offline baseline (no LLM)";

export function modelLabel(run: { backend: string; model: string }): string {
  if (run.backend === "baseline") return BASELINE_LABEL;
  // An agent run's model column is "<agent>" or "<agent>/<model>".
  if (run.backend === "agent") return `${run.model} (agent)`;
  return run.backend === "azure" ? `${run.model} (Azure)` : run.model;
}

// ------------------------------------------------------------------------------------------------ money

/**
 * A cost in US dollars: "$12.34", "$0.0123" under a dollar (small runs cost fractions of a cent), "< $0.0001" for a
 * cost (or difference) too small to show; null (no price known) is "unknown", never a made-up number. `signed` shows
 * a difference ("+$0.0123", "-$0.0040", with the hyphen formatSigned uses).
 */
export function formatCost(usd: number | null | undefined, { signed = false }: { signed?: boolean } = {}): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return "unknown";
  const size = Math.abs(usd);
  if (size === 0) return "$0.00";
  if (size < 0.00005) return "< $0.0001";
  const sign = !signed ? "" : usd > 0 ? "+" : "-";
  return `${sign}$${size.toFixed(size < 1 ? 4 : 2)}`;
}
