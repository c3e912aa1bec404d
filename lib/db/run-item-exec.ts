import type { RunItemExec } from "../../generated/prisma/client";
import type { ItemExecRecord } from "../runs/types";
import type { Db } from "./client";

function toRecord(row: RunItemExec): ItemExecRecord {
  return {
    agent: row.agent,
    command: JSON.parse(row.commandJson) as string[],
    outcome: row.outcome as ItemExecRecord["outcome"],
    exitCode: row.exitCode,
    exitSignal: row.exitSignal,
    durationMs: row.durationMs,
    stdout: row.stdout,
    stderr: row.stderr,
    stdoutBytes: row.stdoutBytes,
    stderrBytes: row.stderrBytes,
    stdoutTruncated: row.stdoutTruncated,
    stderrTruncated: row.stderrTruncated,
    workspacePath: row.workspacePath,
    workspaceKept: row.workspaceKept,
    invocations: row.invocations,
    host: row.host,
    workerName: row.workerName,
  };
}

/** The exec details of one trial of an item of an agent run, or null (a chat run, or no result yet). */
export async function getItemExec(db: Db, runId: number, itemId: string, trial = 1): Promise<ItemExecRecord | null> {
  const row = await db.runItemExec.findUnique({ where: { runId_itemId_trial: { runId, itemId, trial } } });
  return row ? toRecord(row) : null;
}

/** How many items of the run still have their workspace on disk. */
export async function countKeptWorkspaces(db: Db, runId: number): Promise<number> {
  return db.runItemExec.count({ where: { runId, workspaceKept: true } });
}

/** Records that the run's workspaces were deleted (the files are removed by lib/agent). */
export async function markWorkspacesRemoved(db: Db, runId: number): Promise<number> {
  const { count } = await db.runItemExec.updateMany({ where: { runId, workspaceKept: true }, data: { workspaceKept: false } });
  return count;
}
