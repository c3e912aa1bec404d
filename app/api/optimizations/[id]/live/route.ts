import { guardedRoute } from "@/app/_lib/http";
import { OptimizationParamsSchema } from "@/app/_lib/ids";
import { loadOptimizationLive } from "@/app/_lib/optimization-payload";
import { getDb } from "@/lib/db";

/** The optimisation page's live data: status, scores per step, spend, stages, lineage (no optimizer call text). */
export const GET = guardedRoute({ params: OptimizationParamsSchema }, async (_request, { params }) =>
  // Polled while the optimisation runs: never let a cache answer.
  Response.json(await loadOptimizationLive(getDb(), params.id), { headers: { "Cache-Control": "no-store" } }),
);
