import type { ItemTrialCounts } from "../runs/trials";
import type { Db } from "./client";

/**
 * Per item of a run, its trials so far, how many were right and their EM sum: what consistency, pass@k and the
 * item-level standard error are computed from. One grouped scan of the run's rows (no text columns).
 */
export async function getItemTrialCounts(db: Db, runId: number): Promise<ItemTrialCounts[]> {
  const rows = await db.$queryRaw<{ n: number | bigint; c: number | bigint | null; s: number | null }[]>`
    SELECT COUNT(*) AS n, SUM(CASE WHEN "em" >= 1 THEN 1 ELSE 0 END) AS c, SUM("em") AS s
    FROM "RunResult" WHERE "runId" = ${runId} GROUP BY "itemId"`;
  return rows.map((row) => ({ trials: Number(row.n), correct: Number(row.c ?? 0), emSum: Number(row.s ?? 0) }));
}
