import type { Run } from "../../generated/prisma/client";
import { RunConfigSchema, type RunConfig } from "../runs/run-config";
import type { RunStatus } from "../runs/types";
import type { Db } from "./client";
import { NotFoundError } from "./errors";

export interface RunRecord extends Omit<Run, "configJson" | "status"> {
  status: RunStatus;
  config: RunConfig;
}

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

/** An imported run was produced elsewhere: nothing says which model to call, so it is never executed here. */
export function refuseImported(run: Pick<RunRecord, "id" | "source">): void {
  if (run.source === "imported") throw new Error(`run ${run.id} was imported from a results file; it cannot be resumed, retried or executed here`);
}

export async function listRunRecords(db: Db): Promise<RunRecord[]> {
  const rows = await db.run.findMany({ orderBy: { id: "desc" } });
  return rows.map(toRunRecord);
}


/** What a finished execution is judged by: how many items have a result, and how many of them the model answered. */
export async function getRunAnswerCounts(db: Db, runId: number): Promise<{ nDone: number; nAgentOk: number }> {
  return db.run.findUniqueOrThrow({ where: { id: runId }, select: { nDone: true, nAgentOk: true } });
}
