import { z } from "zod";
import { guardedRoute } from "@/app/_lib/http";
import { RunParamsSchema } from "@/app/_lib/ids";
import { getDb } from "@/lib/db";
import { handleResultsDownload } from "@/lib/export/results-request";
import { EXPORT_FORMATS } from "@/lib/export/run-export";

export const dynamic = "force-dynamic";

// The explorer's view parameters (filter, q, …) are read leniently, as on the run page.
const ResultsQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(", ")}` }).default("csv"),
});

/** GET /api/runs/<id>/results?format=csv|jsonl|seed[&filter=…&q=…]: streamed (see lib/export/results-request). */
export const GET = guardedRoute({ params: RunParamsSchema, query: ResultsQuerySchema }, async (request, { params, query }) =>
  handleResultsDownload(getDb(), params.id, query.format, new URL(request.url).searchParams),
);
