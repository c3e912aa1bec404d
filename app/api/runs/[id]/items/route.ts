import { getDb } from "@/lib/db";
import { loadRunItems } from "@/app/runs/_lib/items-payload";

/** A page of the run's items as JSON: ?filter=&reason=&q=&sort=&dir=&page=, exactly as on the run page. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await context.params;
  const result = await loadRunItems(getDb(), id, new URL(request.url).searchParams);
  return Response.json(result.body, { status: result.status, headers: { "Cache-Control": "no-store" } });
}
