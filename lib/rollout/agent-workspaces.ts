import { removeRunWorkspaces } from "../agent/workspace";
import { dataDirectory, getRun, markWorkspacesRemoved, type Db } from "../db";

/**
 * Deletes the workspaces an agent run kept (those of items that were not correct, or all with "keep
 * workspaces"), once the run has stopped. Returns how many items had one.
 */
export async function removeKeptWorkspaces(db: Db, runId: number, dataDir: string = dataDirectory()): Promise<number> {
  const run = await getRun(db, runId);
  if (run.config.model.backend !== "agent") throw new Error(`run ${runId} is not an agent run: it has no workspaces`);
  if (run.status === "running" || run.status === "queued") throw new Error(`run ${runId} is ${run.status}; wait for it to stop first`);
  await removeRunWorkspaces(dataDir, runId);
  return markWorkspacesRemoved(db, runId);
}
