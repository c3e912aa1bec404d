import type { Db } from "./client";
import { IDS_PER_QUERY } from "./result-rows";
import { getRun, refuseImported, type RunRecord } from "./run-records";

const RESUMABLE = new Set(["interrupted", "cancelled", "failed"]);

/** Puts an interrupted, cancelled or failed run back in the queue; the worker resumes it (finished items are kept). */
export async function queueRunForResume(db: Db, runId: number): Promise<RunRecord> {
  const run = await getRun(db, runId);
  refuseImported(run);
  if (!RESUMABLE.has(run.status)) {
    throw new Error(`run ${runId} is ${run.status}; only an interrupted, cancelled or failed run can be resumed`);
  }
  await db.run.updateMany({ where: { id: runId, status: run.status }, data: { status: "queued", error: null, finishedAt: null } });
  return getRun(db, runId);
}

/**
 * Forgets the run's errors and timeouts (their rows and conversations) and queues the run, so only those
 * items run again. Counters, running sums and the order of completion are rebuilt from the rows that stay; what was
 * spent (tokens, retried and rate-limited calls) stays counted, since those calls were made and paid for.
 */
export async function retryFailedItems(db: Db, runId: number): Promise<{ run: RunRecord; removed: number }> {
  const run = await getRun(db, runId);
  refuseImported(run);
  if (run.status === "running" || run.status === "queued") throw new Error(`run ${runId} is ${run.status}; wait for it to stop first`);
  const removed = await db.$transaction(async (tx) => {
    const failed = await tx.runResult.findMany({ where: { runId, status: { in: ["error", "timeout"] } }, select: { itemId: true, trial: true } });
    // Each failed trial goes (other trials of the same item stay), in chunks under the driver's bound-parameter limit;
    // their search entries go with them (a trigger).
    const byTrial = new Map<number, typeof failed>();
    for (const row of failed) byTrial.set(row.trial, [...(byTrial.get(row.trial) ?? []), row]);
    for (const [trial, rows] of byTrial) {
      for (let start = 0; start < rows.length; start += IDS_PER_QUERY) {
        const where = { runId, trial, itemId: { in: rows.slice(start, start + IDS_PER_QUERY).map((row) => row.itemId) } };
        await tx.runItemConversation.deleteMany({ where });
        await tx.runItemExec.deleteMany({ where });
        await tx.runResult.deleteMany({ where });
      }
    }
    // Renumber and re-accumulate in completion order, so the curve stays a function of items completed.
    await tx.$executeRaw`
      UPDATE "RunResult" SET "seq" = w.rn, "cumEm" = w.ce, "cumF1" = w.cf, "cumSubEm" = w.cs
      FROM (SELECT "id", ROW_NUMBER() OVER win AS rn, SUM("em") OVER win AS ce, SUM("f1") OVER win AS cf, SUM("subEm") OVER win AS cs
            FROM "RunResult" WHERE "runId" = ${runId} WINDOW win AS (ORDER BY "seq" ROWS UNBOUNDED PRECEDING)) AS w
      WHERE "RunResult"."id" = w."id"`;
    const totals = await tx.runResult.aggregate({
      where: { runId },
      _count: { _all: true },
      _sum: { em: true, f1: true, subEm: true, latencyMs: true },
    });
    const agentOk = await tx.runResult.count({ where: { runId, agentOk: true } });
    await tx.run.update({
      where: { id: runId },
      data: {
        status: "queued", error: null, finishedAt: null,
        nDone: totals._count._all, emSum: totals._sum.em ?? 0, f1Sum: totals._sum.f1 ?? 0, subEmSum: totals._sum.subEm ?? 0,
        nAgentOk: agentOk, nErrors: 0, nTimeouts: 0,
        latencyMsSum: totals._sum.latencyMs ?? 0,
      },
    });
    return failed.length;
  });
  return { run: await getRun(db, runId), removed };
}
