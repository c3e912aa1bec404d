import { getDb } from "@/lib/db";
import { loadRunLive } from "@/app/runs/_lib/live-payload";

/** The run page's live data: progress, derived rates, the downsampled accuracy curve and failure reasons. */
export async function GET(_request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await context.params;
  const result = await loadRunLive(getDb(), id);
  // Polled every second while the run is going: never let a cache answer.
  return Response.json(result.body, { status: result.status, headers: { "Cache-Control": "no-store" } });
}
