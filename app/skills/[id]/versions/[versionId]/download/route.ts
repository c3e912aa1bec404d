import { isRequestAuthorized } from "@/lib/auth/request-auth";
import { getDb } from "@/lib/db";
import { skillDownloadResponse } from "./skill-download";

export const dynamic = "force-dynamic";

/** GET /skills/:id/versions/:versionId/download — the version's text as skillboard-skill-<versionId>-<slug>.md. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string; versionId: string }> }): Promise<Response> {
  if (!isRequestAuthorized(request.headers)) return Response.json({ error: "authentication required" }, { status: 401 });
  return skillDownloadResponse(getDb(), await params);
}
