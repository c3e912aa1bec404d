/**
 * Round axis ticks from 0 to at least `max` (e.g. 0.22 → 0, 0.05, …, 0.25), so a chart whose range changes
 * every second still reads "0.1, 0.2" rather than "0.055, 0.165".
 */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const rough = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= rough)!;
  const steps = Math.ceil(max / step - 1e-9);
  // Rounded to the step's precision, so 3 × 0.1 is 0.3 and not 0.30000000000000004.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  return Array.from({ length: steps + 1 }, (_, i) => Number((i * step).toFixed(decimals)));
}
