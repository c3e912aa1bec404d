/** Display of differences and p-values on the comparison page (pure, locale-independent, so SSR and hydration agree). */

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
