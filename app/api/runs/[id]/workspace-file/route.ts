import { isRequestAuthorized } from "@/lib/auth/request-auth";
import { dataDirectory, getDb } from "@/lib/db";
import { workspaceFileResponse } from "@/app/runs/_lib/workspace-file";

export const dynamic = "force-dynamic";

/** GET /api/runs/:id/workspace-file?item=ITEM&path=REL — a file an agent left in the item's workspace. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  if (!isRequestAuthorized(request.headers)) return Response.json({ error: "authentication required" }, { status: 401 });
  const { id } = await context.params;
  const query = new URL(request.url).searchParams;
  return workspaceFileResponse(getDb(), { runId: id, itemId: query.get("item"), path: query.get("path") }, dataDirectory());
}
