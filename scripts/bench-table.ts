/** What the CLI benchmarks share: their N/C/L scales, rounding, and the table they print on stderr. */

export interface Scale {
  /** Items. */
  n: number;
  /** Requests in flight. */
  c: number;
  /** The model server's latency, ms. */
  l: number;
}

/** The performance issue's three scales. */
export const ISSUE_SCALES = "2000/64/100,5000/256/200,20000/256/50";

/** "2000/64/100,5000/256/200" → scales; throws naming the part that is not N/C/L. */
export function parseScales(text: string, option = "--scales"): Scale[] {
  return text.split(",").map((part) => {
    const [n, c, l] = part.split("/").map(Number);
    if (!n || !c || l === undefined || Number.isNaN(l)) throw new Error(`${option}: "${part}" is not N/C/L`);
    return { n, c, l };
  });
}

export function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The rows' `columns` as a right-aligned table, on stderr (the rows themselves go to stdout as JSON lines). */
export function printTable(rows: readonly Record<string, unknown>[], columns: readonly string[]): void {
  const cells = rows.map((row) => columns.map((column) => String(row[column] ?? "-")));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i]!.length)));
  for (const line of [columns, widths.map((w) => "-".repeat(w)), ...cells]) log(line.map((cell, i) => cell.padStart(widths[i]!)).join("  "));
}
