import { hostname } from "node:os";
import type { Run } from "../../generated/prisma/client";
import { RunConfigSchema, type RunConfig } from "../rollout/run-config";
import type { RunStatus } from "../rollout/types";
import type { Db } from "./client";
import { NotFoundError, RunBusyError } from "./errors";
import { redactSecrets } from "../text/redact-secrets";

export interface RunRecord extends Omit<Run, "configJson" | "status"> {
  status: RunStatus;
  config: RunConfig;
}

/** A lease not renewed for this long is considered abandoned (its process died on another host). */
export const LEASE_TTL_MS = 30_000;

export function toRunRecord(row: Run): RunRecord {
  const { configJson, status, ...rest } = row;
  return { ...rest, status: status as RunStatus, config: RunConfigSchema.parse(JSON.parse(configJson)) };
}

/**
 * Stores a new run, queued for a worker; or, with `leaseFor`, already held by that worker id, so that no other
 * process (a dashboard's worker polling for queued runs) can take it before its creator executes it.
 */
export async function createRun(
  db: Db,
  input: {
    name?: string | null; datasetId: number; skillVersionId: number; config: RunConfig; systemPrompt: string; itemsTotal: number; model: string;
    leaseFor?: string;
  },
): Promise<RunRecord> {
  const row = await db.run.create({
    data: {
      ...(input.leaseFor ? { status: "running", workerId: input.leaseFor, heartbeatAt: new Date() } : {}),
      name: input.name ?? null,
      datasetId: input.datasetId,
      skillVersionId: input.skillVersionId,
      backend: input.config.model.backend,
      model: input.model,
      configJson: JSON.stringify(RunConfigSchema.parse(input.config)),
      systemPrompt: input.systemPrompt,
      itemsTotal: input.itemsTotal,
    },
  });
  return toRunRecord(row);
}

export async function getRun(db: Db, id: number): Promise<RunRecord> {
  const row = await db.run.findUnique({ where: { id } });
  if (!row) throw new NotFoundError("run", id);
  return toRunRecord(row);
}

export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Takes the run's lease for this process. Refused while another live process holds it: the database,
 * not memory, says who runs what, so a second process can see a run and safely resume it.
 */
export async function claimRun(
  db: Db,
  runId: number,
  workerId: string,
  /** Claim only from these statuses (the worker: queued or running). A run that moved on meanwhile is not taken. */
  expected?: readonly RunStatus[],
): Promise<RunRecord> {
  const run = await db.run.findUnique({ where: { id: runId } });
  if (!run) throw new NotFoundError("run", runId);
  refuseImported(run);
  if (expected && !expected.includes(run.status as RunStatus)) {
    throw new RunBusyError(`run ${runId} is ${run.status} now; not claimed`);
  }
  if (run.status === "running" && run.workerId && run.workerId !== workerId && leaseIsAlive(run.workerId, run.heartbeatAt)) {
    throw new RunBusyError(
      `run ${runId} is being executed by another process (${run.workerId}, last heartbeat ${run.heartbeatAt?.toISOString()})`,
    );
  }
  const now = new Date();
  // Compare-and-set on the lease holder: of two processes claiming at once, one wins.
  const claimed = await db.run.updateMany({
    where: { id: runId, workerId: run.workerId, status: run.status },
    data: {
      status: "running", workerId, heartbeatAt: now, startedAt: run.startedAt ?? now, resumedAt: now, resumedDone: run.nDone,
      finishedAt: null, error: null, cancelRequestedAt: null, inFlight: 0, retryingNow: 0, rateLimitedNow: 0,
    },
  });
  if (claimed.count !== 1) throw new RunBusyError(`run ${runId} was claimed by another process`);
  return getRun(db, runId);
}

/** An imported run was produced elsewhere: nothing says which model to call, so it is never executed here. */
export function refuseImported(run: Pick<RunRecord, "id" | "source">): void {
  if (run.source === "imported") throw new Error(`run ${run.id} was imported from a results file; it cannot be resumed, retried or executed here`);
}

function leaseIsAlive(workerId: string, heartbeatAt: Date | null): boolean {
  const [host, pid] = workerId.split(":");
  // Same machine: the process table is the truth, so a killed run can be resumed at once.
  if (host === hostname() && pid) return processExists(Number(pid));
  return heartbeatAt !== null && Date.now() - heartbeatAt.getTime() < LEASE_TTL_MS;
}

function processExists(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Renews the lease and reports whether someone asked for a cancel. */
export async function heartbeatRun(db: Db, runId: number, workerId: string): Promise<{ cancelRequested: boolean; leaseLost: boolean }> {
  const updated = await db.run.updateMany({ where: { id: runId, workerId }, data: { heartbeatAt: new Date() } });
  if (updated.count === 0) return { cancelRequested: false, leaseLost: true };
  const run = await db.run.findUnique({ where: { id: runId }, select: { cancelRequestedAt: true } });
  return { cancelRequested: run?.cancelRequestedAt != null, leaseLost: false };
}

/** Asks the process executing the run to cancel it; a run nobody executes is cancelled at once. */
export async function requestCancel(db: Db, runId: number): Promise<void> {
  const run = await getRun(db, runId);
  if (run.status === "running" && run.workerId && leaseIsAlive(run.workerId, run.heartbeatAt)) {
    await db.run.update({ where: { id: runId }, data: { cancelRequestedAt: new Date() } });
  } else if (run.status === "queued" || run.status === "running" || run.status === "interrupted") {
    await db.run.update({ where: { id: runId }, data: { status: "cancelled", finishedAt: new Date(), workerId: null } });
  }
}

/** Releases the lease with the run's final (or paused) status. */
export async function finishRun(
  db: Db,
  runId: number,
  workerId: string,
  outcome: { status: Exclude<RunStatus, "queued" | "running">; error?: string | null; activeMs: number },
): Promise<RunRecord> {
  await db.run.updateMany({
    where: { id: runId, workerId },
    data: {
      status: outcome.status,
      // A run's error is shown and exported: no secret is stored, whatever the message quoted.
      error: outcome.error ? redactSecrets(outcome.error) : null,
      finishedAt: new Date(),
      workerId: null,
      inFlight: 0,
      retryingNow: 0,
      rateLimitedNow: 0,
      activeMs: { increment: outcome.activeMs },
    },
  });
  return getRun(db, runId);
}

/** Gives up the lease but leaves the run "running", for whichever process starts next to resume it. */
export async function releaseRun(db: Db, runId: number, workerId: string, activeMs: number): Promise<RunRecord> {
  await db.run.updateMany({
    where: { id: runId, workerId },
    data: { workerId: null, inFlight: 0, retryingNow: 0, rateLimitedNow: 0, activeMs: { increment: activeMs } },
  });
  return getRun(db, runId);
}

/** The highest order of completion stored for the run (0 if none); new results continue after it. */
export async function getLastSeq(db: Db, runId: number): Promise<number> {
  const last = await db.runResult.findFirst({ where: { runId }, orderBy: { seq: "desc" }, select: { seq: true } });
  return last?.seq ?? 0;
}

export async function listRuns(db: Db): Promise<RunRecord[]> {
  const rows = await db.run.findMany({ orderBy: { id: "desc" } });
  return rows.map(toRunRecord);
}

/** Item ids that already have a result: the seed's resume skips them. */
export async function getCompletedItemIds(db: Db, runId: number): Promise<Set<string>> {
  const rows = await db.runResult.findMany({ where: { runId }, select: { itemId: true } });
  return new Set(rows.map((row) => row.itemId));
}

/**
 * The most common fail reason among the run's rows, for the seed's systemic-failure message.
 * Ties go to the reason seen first in completion order, as Python's Counter.most_common does.
 * Only called once, when a whole run failed.
 */
export async function mostCommonFailReason(db: Db, runId: number): Promise<{ reason: string; count: number } | null> {
  const rows = await db.runResult.findMany({ where: { runId }, select: { failReason: true }, orderBy: { seq: "asc" } });
  const counts = new Map<string, number>();
  for (const { failReason } of rows) {
    const reason = failReason || "unknown error";
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  let best: { reason: string; count: number } | null = null;
  for (const [reason, count] of counts) if (!best || count > best.count) best = { reason, count };
  return best;
}
