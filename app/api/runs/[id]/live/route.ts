import { guardedRoute } from "@/app/_lib/http";
import { RunParamsSchema } from "@/app/_lib/ids";
import { loadRunLive } from "@/app/_lib/live-payload";
import { getDb } from "@/lib/db";

/** The run page's live data: progress, derived rates, the downsampled accuracy curve and failure reasons. */
export const GET = guardedRoute({ params: RunParamsSchema }, async (_request, { params }) =>
  // Polled every second while the run is going: never let a cache answer.
  Response.json(await loadRunLive(getDb(), params.id), { headers: { "Cache-Control": "no-store" } }),
);
