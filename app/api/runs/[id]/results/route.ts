import { refuseUnlessAllowed } from "@/lib/auth/guard-request";
import { getDb } from "@/lib/db";
import { handleResultsDownload } from "@/lib/export/results-request";

export const dynamic = "force-dynamic";

/** GET /api/runs/<id>/results?format=csv|jsonl|seed[&filter=…&q=…]: streamed (see lib/export/results-request). */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  // The proxy checks too; a download of every result is worth checking twice.
  return refuseUnlessAllowed(request) ?? handleResultsDownload(getDb(), (await context.params).id, new URL(request.url).searchParams);
}
