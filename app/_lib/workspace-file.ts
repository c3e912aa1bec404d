import { z } from "zod";
import { itemWorkspaceDirectory, readWorkspaceFile, isSafeRelativePath } from "@/lib/agent";
import { getItemExec, type Db } from "@/lib/db";
import { trialItemKey } from "@/lib/runs/types";
import { errorResponse } from "@/app/_lib/http";

/** Largest workspace file served whole; bigger ones are cut (the response says so in a header). */
export const WORKSPACE_FILE_MAX_BYTES = 10 * 1024 * 1024;

/** Where a file an agent left in an item's workspace is served. */
export function workspaceFilePath(runId: number, itemId: string, path: string, trial = 1): string {
  return `/api/runs/${runId}/workspace-file?${new URLSearchParams({ item: itemId, path, ...(trial > 1 ? { trial: String(trial) } : {}) })}`;
}

/** The query of GET /api/runs/:id/workspace-file: which item's workspace, and the file's path inside it. */
export const WorkspaceFileQuerySchema = z.object({
  item: z.string({ error: "item is required" }).min(1, "item is required").max(1000, "item can be at most 1000 characters"),
  path: z.string({ error: "path is required" }).min(1, "path is required"),
  /** Runs with repeated trials: which trial's workspace (the first by default). */
  trial: z.coerce.number({ error: "trial must be a whole number" }).int("trial must be a whole number").min(1, "trial starts at 1").max(100, "trial is at most 100").default(1),
});

function notFound(): Response {
  return errorResponse(404, { error: "no such workspace file" });
}

/**
 * A file of an agent run's item workspace, for viewing in the browser, never as something it would run: text as
 * text/plain, anything else as a download, with nosniff and a sandboxing CSP. The folder is derived from the run
 * and item ids (never taken from the request or the database), and the relative path must stay inside it once
 * links are resolved (lib/agent/workspace.ts), so no other file of the machine can be read through this.
 */
export async function workspaceFileResponse(db: Db, input: { runId: number; itemId: string; path: string; trial?: number }, dataDir: string): Promise<Response> {
  const { runId, itemId, path } = input;
  const trial = input.trial ?? 1;
  // A path that would leave the workspace names no file in it.
  if (!isSafeRelativePath(path)) return notFound();
  // Only items that ran through an agent have a workspace.
  if (!(await getItemExec(db, runId, itemId, trial))) return notFound();
  const file = await readWorkspaceFile(itemWorkspaceDirectory(dataDir, runId, trialItemKey(itemId, trial)), path, WORKSPACE_FILE_MAX_BYTES);
  if (!file) return notFound();
  const name = path.split("/").pop()!.replace(/[^A-Za-z0-9._-]+/g, "_") || "file";
  return new Response(new Uint8Array(file.content), {
    headers: {
      "Content-Type": file.isText ? "text/plain; charset=utf-8" : "application/octet-stream",
      "Content-Disposition": `${file.isText ? "inline" : "attachment"}; filename="${name}"`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "no-store",
      ...(file.truncated ? { "X-Skillboard-Truncated": `first ${file.content.length} of ${file.size} bytes` } : {}),
    },
  });
}
