import { Prisma, type Run } from "../../generated/prisma/client";
import type { Db } from "./client";
import { NotFoundError } from "./errors";
import { toRunRecord, type RunRecord } from "./run-records";

/** A run with what the lists and the run page show next to it. */
export interface RunWithNames extends RunRecord {
  datasetName: string;
  skillId: number;
  skillName: string;
  skillVersion: number;
}

export interface RunListFilter {
  datasetId?: number;
  skillId?: number;
}

const VIEW_INCLUDE = {
  dataset: { select: { name: true } },
  skillVersion: { select: { version: true, skill: { select: { id: true, name: true } } } },
} as const;

type RunRowWithNames = Run & { dataset: { name: string }; skillVersion: { version: number; skill: { id: number; name: string } } };

function toView({ dataset, skillVersion, ...run }: RunRowWithNames): RunWithNames {
  return { ...toRunRecord(run), datasetName: dataset.name, skillId: skillVersion.skill.id, skillName: skillVersion.skill.name, skillVersion: skillVersion.version };
}

export async function listRunsWithNames(db: Db, filter: RunListFilter = {}): Promise<RunWithNames[]> {
  const rows = await db.run.findMany({
    where: { datasetId: filter.datasetId, skillVersion: filter.skillId ? { skillId: filter.skillId } : undefined },
    include: VIEW_INCLUDE,
    orderBy: { id: "desc" },
  });
  return rows.map(toView);
}

export async function getRunWithNames(db: Db, runId: number): Promise<RunWithNames> {
  const row = await db.run.findUnique({ where: { id: runId }, include: VIEW_INCLUDE });
  if (!row) throw new NotFoundError("run", runId);
  return toView(row);
}

/** One point of the running-accuracy curve: the means over the first `n` completed items. */
export interface CurvePoint {
  n: number;
  em: number;
  f1: number;
  subEm: number;
  /** Latency of the n-th completed item, ms. */
  latencyMs: number;
}

/**
 * The running accuracy curve, downsampled on the server to at most about `maxPoints` points (every k-th
 * item plus the last), read straight from the stored running sums: no aggregation over the run.
 *
 * The points are looked up by their seq in the (runId, seq) index, ~300 lookups, rather than found by testing every
 * row's seq (`"seq" % k = 0`): the run page polls this every second, and for a 20,000-item run the scan took ~2.7 ms
 * of SQLite's time a poll against ~0.3 ms.
 */
export async function getRunCurve(db: Db, runId: number, maxPoints = 300): Promise<CurvePoint[]> {
  const [last] = await db.$queryRaw<{ seq: number | bigint }[]>`
    SELECT "seq" FROM "RunResult" WHERE "runId" = ${runId} ORDER BY "seq" DESC LIMIT 1`;
  if (!last) return [];
  const lastSeq = Number(last.seq);
  const step = Math.max(1, Math.ceil(lastSeq / maxPoints));
  const seqs = Array.from({ length: Math.floor(lastSeq / step) }, (_, i) => (i + 1) * step);
  if (seqs.at(-1) !== lastSeq) seqs.push(lastSeq);
  const rows = await db.$queryRaw<{ seq: number | bigint; cumEm: number; cumF1: number; cumSubEm: number; latencyMs: number }[]>`
    SELECT "seq", "cumEm", "cumF1", "cumSubEm", "latencyMs" FROM "RunResult"
    WHERE "runId" = ${runId} AND "seq" IN (${Prisma.join(seqs)}) ORDER BY "seq"`;
  return rows.map((row) => {
    const n = Number(row.seq);
    return { n, em: row.cumEm / n, f1: row.cumF1 / n, subEm: row.cumSubEm / n, latencyMs: row.latencyMs };
  });
}

export interface FailureReasonCount {
  reason: string;
  count: number;
}

/**
 * The most common reasons items failed: wrong answers as one group (their reasons name each item), then
 * model errors by message and timeouts. Reads only the error and timeout rows (indexed), never the whole run.
 */
export async function getFailureReasons(db: Db, run: RunRecord, limit = 6): Promise<FailureReasonCount[]> {
  const groups = await db.runResult.groupBy({
    by: ["failReason"],
    where: { runId: run.id, status: { in: ["error", "timeout"] } },
    _count: { _all: true },
    orderBy: { _count: { failReason: "desc" } },
    take: limit,
  });
  const wrong = run.nAgentOk - Math.round(run.emSum);
  const reasons = groups.map((group) => ({ reason: group.failReason || "unknown error", count: group._count._all }));
  if (wrong > 0) reasons.push({ reason: "wrong answer (EM = 0)", count: wrong });
  return reasons.sort((a, b) => b.count - a.count).slice(0, limit);
}
