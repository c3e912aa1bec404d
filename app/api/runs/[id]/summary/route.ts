import { guardedRoute } from "@/app/_lib/http";
import { RunParamsSchema } from "@/app/_lib/ids";
import { getDb } from "@/lib/db";
import { handleSummaryDownload } from "@/lib/export/results-request";

export const dynamic = "force-dynamic";

/** GET /api/runs/<id>/summary: the run's summary JSON (no secret; see lib/export/run-summary). */
export const GET = guardedRoute({ params: RunParamsSchema }, async (_request, { params }) => handleSummaryDownload(getDb(), params.id));
