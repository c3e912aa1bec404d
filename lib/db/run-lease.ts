import { hostname } from "node:os";
import type { RunStatus } from "../runs/types";
import type { Db } from "./client";
import { NotFoundError, RunBusyError } from "./errors";
import { getRun, refuseImported, type RunRecord } from "./run-records";
import { redactSecrets } from "../text/redact-secrets";
import { QUEUE_WORKER_ID } from "./run-queue-store";

/**
 * Who executes a run: a lease (worker id + heartbeat) on the run's row, taken, renewed and given up here. The database,
 * not memory, says who runs what, so several processes can share one database without running anything twice.
 */

/** A lease not renewed for this long is considered abandoned (its process died on another host). */
export const LEASE_TTL_MS = 30_000;

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

export function leaseIsAlive(workerId: string, heartbeatAt: Date | null, ttlMs: number = LEASE_TTL_MS): boolean {
  const [host, pid] = workerId.split(":");
  // Same machine: the process table is the truth, so a killed run can be resumed at once.
  if (host === hostname() && pid) return processExists(Number(pid));
  return heartbeatAt !== null && Date.now() - heartbeatAt.getTime() < ttlMs;
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
  // PostgreSQL's queue: the run ends now; each of its workers sees it at its next heartbeat (2 s) and stops its items.
  if (run.status === "running" && run.workerId === QUEUE_WORKER_ID) {
    await db.run.updateMany({
      where: { id: runId, status: "running" },
      data: { status: "cancelled", finishedAt: new Date(), cancelRequestedAt: new Date(), workerId: null, inFlight: 0, retryingNow: 0, rateLimitedNow: 0 },
    });
  } else if (run.status === "running" && run.workerId && leaseIsAlive(run.workerId, run.heartbeatAt)) {
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

/**
 * Runs a worker may take: queued ones, and "running" ones whose process died (their lease is checked when claimed).
 * Queued first, then oldest first; `exclude` are the runs this worker executes already.
 */
export async function listRunsToExecute(db: Db, exclude: readonly number[]): Promise<{ id: number; status: RunStatus }[]> {
  const rows = await db.run.findMany({
    // An optimisation's runs are executed by that optimisation (it resumes them itself), never on their own.
    where: { status: { in: ["queued", "running"] }, id: { notIn: [...exclude] }, optimizationRuns: { none: {} } },
    orderBy: [{ status: "asc" }, { id: "asc" }],
    select: { id: true, status: true },
  });
  return rows.map((row) => ({ id: row.id, status: row.status as RunStatus }));
}
