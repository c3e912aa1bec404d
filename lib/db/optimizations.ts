import type { Optimization } from "../../generated/prisma/client";
import type { Db } from "./client";
import { NotFoundError, RunBusyError } from "./errors";
import { leaseIsAlive } from "./run-lease";
import { redactSecrets } from "../text/redact-secrets";

/**
 * An optimisation's row: settings, status, lease and spend. Its stages, calls and runs are in
 * optimization-stages.ts. The JSON columns are parsed by the caller's schema (lib/optimize), not here.
 */

export type OptimizationStatus = "queued" | "running" | "waiting_for_approval" | "completed" | "failed" | "cancelled" | "interrupted";

export interface OptimizationRecord extends Omit<Optimization, "status"> {
  status: OptimizationStatus;
}

export interface CreateOptimizationInput {
  name?: string | null;
  skillId: number;
  initialVersionId: number;
  trainDatasetId: number;
  valDatasetId: number;
  testDatasetId: number | null;
  settingsJson: string;
  targetConfigJson: string;
  optimizerJson: string;
  capsJson: string;
  /** Leased to this worker at once (the CLI runs it itself). */
  leaseFor?: string;
  source?: "executed" | "imported";
  status?: OptimizationStatus;
}

function toRecord(row: Optimization): OptimizationRecord {
  return { ...row, status: row.status as OptimizationStatus };
}

export async function createOptimization(db: Db, input: CreateOptimizationInput): Promise<OptimizationRecord> {
  const { leaseFor, ...data } = input;
  const now = new Date();
  const row = await db.optimization.create({
    data: {
      ...data,
      currentVersionId: input.initialVersionId,
      bestVersionId: input.initialVersionId,
      ...(leaseFor ? { status: "running", workerId: leaseFor, heartbeatAt: now, startedAt: now } : {}),
    },
  });
  return toRecord(row);
}

export async function getOptimization(db: Db, id: number): Promise<OptimizationRecord> {
  const row = await db.optimization.findUnique({ where: { id } });
  if (!row) throw new NotFoundError("optimization", id);
  return toRecord(row);
}

export async function listOptimizations(db: Db): Promise<OptimizationRecord[]> {
  return (await db.optimization.findMany({ orderBy: { id: "desc" } })).map(toRecord);
}

/** Optimisations a worker should pick up: queued, or running with nobody holding them (a server restarted). */
export async function listOptimizationsToExecute(db: Db): Promise<OptimizationRecord[]> {
  const rows = await db.optimization.findMany({ where: { status: { in: ["queued", "running"] }, source: "executed" }, orderBy: { id: "asc" } });
  return rows.map(toRecord).filter((row) => row.status === "queued" || !row.workerId || !leaseIsAlive(row.workerId, row.heartbeatAt));
}

/** Takes the optimisation's lease (compare-and-set), refused while another live process holds it. */
export async function claimOptimization(
  db: Db,
  id: number,
  workerId: string,
  expected: readonly OptimizationStatus[] = ["queued", "running", "interrupted"],
): Promise<OptimizationRecord> {
  const row = await getOptimization(db, id);
  if (row.source === "imported") throw new Error(`optimization ${id} was imported from a SkillOpt output directory; it cannot run here`);
  if (!expected.includes(row.status)) throw new RunBusyError(`optimization ${id} is ${row.status.replaceAll("_", " ")}; not started`);
  if (row.status === "running" && row.workerId && row.workerId !== workerId && leaseIsAlive(row.workerId, row.heartbeatAt)) {
    throw new RunBusyError(`optimization ${id} is being executed by another process (${row.workerId})`);
  }
  const now = new Date();
  const claimed = await db.optimization.updateMany({
    where: { id, workerId: row.workerId, status: row.status },
    data: { status: "running", workerId, heartbeatAt: now, startedAt: row.startedAt ?? now, finishedAt: null, error: null, stopReason: null, cancelRequestedAt: null, optimizerInFlight: 0 },
  });
  if (claimed.count !== 1) throw new RunBusyError(`optimization ${id} was claimed by another process`);
  return getOptimization(db, id);
}

/** Renews the lease; says whether a cancel was asked for or the lease was lost. */
export async function heartbeatOptimization(db: Db, id: number, workerId: string): Promise<{ cancelRequested: boolean; leaseLost: boolean }> {
  const updated = await db.optimization.updateMany({ where: { id, workerId }, data: { heartbeatAt: new Date() } });
  if (updated.count === 0) return { cancelRequested: false, leaseLost: true };
  const row = await db.optimization.findUnique({ where: { id }, select: { cancelRequestedAt: true } });
  return { cancelRequested: row?.cancelRequestedAt != null, leaseLost: false };
}

/** Asks for a cancel; one that nobody executes (queued, waiting, interrupted) is cancelled at once. */
export async function requestOptimizationCancel(db: Db, id: number): Promise<OptimizationRecord> {
  const row = await getOptimization(db, id);
  if (["completed", "failed", "cancelled"].includes(row.status)) return row;
  const now = new Date();
  if (row.status === "running" && row.workerId && leaseIsAlive(row.workerId, row.heartbeatAt)) {
    await db.optimization.update({ where: { id }, data: { cancelRequestedAt: now } });
  } else {
    await db.optimization.update({ where: { id }, data: { status: "cancelled", cancelRequestedAt: now, finishedAt: now, workerId: null } });
  }
  return getOptimization(db, id);
}

export interface OptimizationProgress {
  currentVersionId?: number;
  bestVersionId?: number;
  stateJson?: string;
  targetCalls?: number;
  optimizerCalls?: number;
  optimizerTokens?: number;
}

export async function updateOptimizationProgress(db: Db, id: number, progress: OptimizationProgress): Promise<void> {
  await db.optimization.update({ where: { id }, data: progress });
}

export interface FinishOptimization {
  status: OptimizationStatus;
  activeMs: number;
  error?: string | null;
  stopReason?: string | null;
  summaryJson?: string | null;
}

/** Ends this execution: the status, why, and the time spent (added to earlier executions'). */
export async function finishOptimization(db: Db, id: number, workerId: string, finish: FinishOptimization): Promise<OptimizationRecord> {
  await db.optimization.updateMany({
    where: { id, workerId },
    data: {
      status: finish.status,
      activeMs: { increment: finish.activeMs },
      error: finish.error ? redactSecrets(finish.error) : null,
      stopReason: finish.stopReason ?? null,
      ...(finish.summaryJson !== undefined ? { summaryJson: finish.summaryJson } : {}),
      // Also for "running" (a server shutting down): released, so the next start resumes it.
      workerId: null,
      optimizerInFlight: 0,
      finishedAt: ["completed", "failed", "cancelled"].includes(finish.status) ? new Date() : null,
    },
  });
  return getOptimization(db, id);
}

/**
 * The live gauge of optimizer calls under way: +1 when one starts, -1 when it ends (claim and finish reset it). Never
 * below 0: a call aborted by a cancel may end after the optimisation has finished and reset it.
 */
export async function adjustOptimizerInFlight(db: Db, id: number, delta: 1 | -1): Promise<void> {
  await db.optimization.updateMany({ where: { id, ...(delta < 0 ? { optimizerInFlight: { gt: 0 } } : {}) }, data: { optimizerInFlight: { increment: delta } } });
}

/** Puts a paused optimisation (waiting for approval) back in the queue. */
export async function requeueOptimization(db: Db, id: number): Promise<void> {
  await db.optimization.update({ where: { id }, data: { status: "queued", workerId: null } });
}

/** What the optimisation has spent so far, from the stored calls and runs (the truth after any resume). */
export async function measureOptimizationSpend(db: Db, id: number): Promise<{ targetCalls: number; optimizerCalls: number; optimizerTokens: number }> {
  const [calls, runs] = await Promise.all([
    db.optimizerCall.aggregate({ where: { optimizationId: id }, _count: { _all: true }, _sum: { promptTokens: true, completionTokens: true } }),
    db.optimizationRun.findMany({ where: { optimizationId: id }, select: { run: { select: { nDone: true, retries: true } } } }),
  ]);
  return {
    targetCalls: runs.reduce((sum, link) => sum + link.run.nDone + link.run.retries, 0),
    optimizerCalls: calls._count._all,
    optimizerTokens: (calls._sum.promptTokens ?? 0) + (calls._sum.completionTokens ?? 0),
  };
}

/**
 * Undoes an import that failed half-way: the optimisation (its stages and calls cascade), the skill versions the import
 * created, and the skill itself when the import created it and nothing else uses it. Only for source "imported".
 */
export async function removeFailedImport(db: Db, input: { optimizationId: number | null; createdVersionIds: readonly number[]; createdSkillId: number | null }): Promise<void> {
  await db.$transaction(async (tx) => {
    if (input.optimizationId !== null) await tx.optimization.deleteMany({ where: { id: input.optimizationId, source: "imported" } });
    if (input.createdVersionIds.length > 0) await tx.skillVersion.deleteMany({ where: { id: { in: [...input.createdVersionIds] } } });
    if (input.createdSkillId !== null && (await tx.skillVersion.count({ where: { skillId: input.createdSkillId } })) === 0) {
      await tx.skill.delete({ where: { id: input.createdSkillId } });
    }
  });
}
