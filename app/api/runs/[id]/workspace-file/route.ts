import { guardedRoute } from "@/app/_lib/http";
import { RunParamsSchema } from "@/app/_lib/ids";
import { WorkspaceFileQuerySchema, workspaceFileResponse } from "@/app/_lib/workspace-file";
import { dataDirectory, getDb } from "@/lib/db";

export const dynamic = "force-dynamic";

/** GET /api/runs/:id/workspace-file?item=ITEM&path=REL — a file an agent left in the item's workspace. */
export const GET = guardedRoute({ params: RunParamsSchema, query: WorkspaceFileQuerySchema }, async (_request, { params, query }) =>
  workspaceFileResponse(getDb(), { runId: params.id, itemId: query.item, path: query.path, trial: query.trial }, dataDirectory()),
);
