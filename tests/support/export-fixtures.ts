/** A finished run whose answers are hard for CSV and spreadsheets: quotes, newlines, commas, non-ASCII, formula starts. */
import type { Db } from "@/lib/db";
import type { ItemResult } from "@/lib/runs/types";
import { makeItemResults, writeGeneratedRun } from "./item-fixtures";

/** Predicted answers of the first wrong items, in order. */
export const TRICKY_ANSWERS = [
  'He said "yes", then\nleft — Zürich 東京',
  '=HYPERLINK("http://evil.example","click")',
  "+1+2",
  "-3",
  "@SUM(A1)",
  "\tTabbed",
  "\rReturn",
  "a,b\r\nc",
];

export function trickyResults(count = 60): ItemResult[] {
  const results = makeItemResults(count, { seed: 7 });
  let next = 0;
  return results.map((result) => {
    if (result.status !== "wrong" || next >= TRICKY_ANSWERS.length) return result;
    const answer = TRICKY_ANSWERS[next++]!;
    return { ...result, predictedAnswer: answer, response: `Thinking "hard", ü…\n<answer>${answer}</answer>`, question: `${result.question} — «${next}»` };
  });
}

export async function writeTrickyRun(db: Db, count = 60): Promise<{ runId: number; results: ItemResult[] }> {
  const results = trickyResults(count);
  const { runId } = await writeGeneratedRun(db, results);
  return { runId, results };
}
