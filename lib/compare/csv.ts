import Papa from "papaparse";
import { outcomeGroupsOf } from "./pair-scores";
import type { RunDifference } from "./summary";
import type { PairedScores } from "./types";

/** A spreadsheet runs a cell starting with one of these as a formula (Papa's own pattern misses multi-line cells). */
const FORMULA_START = /^[=+\-@\t\r]/;

export interface CsvRun {
  id: number;
  skill: string;
  version: number;
  model: string;
  nDone: number;
  em: number | null;
  f1: number | null;
  subEm: number | null;
  errors: number;
  timeouts: number;
  meanLatencyMs: number | null;
  tokens: number;
  difference: RunDifference | null;
  paired: PairedScores | null;
}

const unparse = (rows: (string | number)[][]) => `${Papa.unparse(rows, { header: false, escapeFormulae: FORMULA_START })}\r\n`;
const num = (value: number | null) => (value === null || !Number.isFinite(value) ? "" : value);

/**
 * The comparison as CSV text chunks: a summary section (one row per run, the differences from the reference with
 * their 95 % intervals and McNemar's p), a blank line, then one row per item and non-reference run with both scores
 * and the outcome. Chunked per run so a big comparison streams.
 */
export function* comparisonCsv(runs: readonly CsvRun[]): Generator<string> {
  yield unparse([[
    "section", "run_id", "skill", "version", "model", "items_scored", "em", "f1", "sub_em", "errors", "timeouts", "mean_latency_ms", "tokens",
    "items_compared", "only_reference", "only_this_run", "delta_em", "delta_em_low", "delta_em_high", "delta_f1", "delta_f1_low", "delta_f1_high",
    "delta_sub_em", "delta_sub_em_low", "delta_sub_em_high", "fixed", "broken", "both_right", "both_wrong", "mcnemar_p",
  ]]);
  yield unparse(runs.map((run, index) => {
    const d = run.difference;
    return [
      index === 0 ? "summary (reference)" : "summary", run.id, run.skill, run.version, run.model, run.nDone, num(run.em), num(run.f1), num(run.subEm),
      run.errors, run.timeouts, num(run.meanLatencyMs === null ? null : Math.round(run.meanLatencyMs)), run.tokens,
      ...(d
        ? [d.n, d.onlyReference, d.onlyOther, num(d.em.mean), num(d.em.low), num(d.em.high), num(d.f1.mean), num(d.f1.low), num(d.f1.high),
           num(d.subEm.mean), num(d.subEm.low), num(d.subEm.high), d.outcomes.fixed, d.outcomes.broken, d.outcomes.bothRight, d.outcomes.bothWrong, num(d.mcnemarP)]
        : Array<string>(17).fill("")),
    ];
  }));
  yield "\r\n";
  yield unparse([["section", "reference_run_id", "run_id", "item_id", "outcome", "reference_em", "run_em", "reference_f1", "run_f1", "reference_sub_em", "run_sub_em", "reference_status", "run_status"]]);
  const reference = runs[0];
  for (const run of runs.slice(1)) {
    const paired = run.paired;
    if (!paired || !reference) continue;
    const rows: (string | number)[][] = paired.itemIds.map((itemId, i) => {
      const a = paired.reference[i]!;
      const b = paired.other[i]!;
      return ["item", reference.id, run.id, itemId, outcomeGroupsOf(a, b).join(" "), a.em, b.em, a.f1, b.f1, a.subEm, b.subEm, a.status, b.status];
    });
    for (const itemId of paired.onlyReference) rows.push(["item", reference.id, run.id, itemId, "only-reference", "", "", "", "", "", "", "", ""]);
    for (const itemId of paired.onlyOther) rows.push(["item", reference.id, run.id, itemId, "only-this-run", "", "", "", "", "", "", "", ""]);
    if (rows.length > 0) yield unparse(rows);
  }
}
