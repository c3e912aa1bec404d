import { refuseUnlessAllowed } from "@/lib/auth/guard-request";
import { getDb } from "@/lib/db";
import { handleSummaryDownload } from "@/lib/export/results-request";

export const dynamic = "force-dynamic";

/** GET /api/runs/<id>/summary: the run's summary JSON (no secret; see lib/export/run-summary). */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return refuseUnlessAllowed(request) ?? handleSummaryDownload(getDb(), (await context.params).id);
}
