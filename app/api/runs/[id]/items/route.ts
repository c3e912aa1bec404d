import { guardedRoute } from "@/app/_lib/http";
import { RunParamsSchema } from "@/app/_lib/ids";
import { loadRunItems } from "@/app/_lib/items-payload";
import { getDb } from "@/lib/db";

/** A page of the run's items as JSON: ?filter=&reason=&q=&sort=&dir=&page=, read exactly as on the run page. */
export const GET = guardedRoute({ params: RunParamsSchema }, async (request, { params }) =>
  Response.json(await loadRunItems(getDb(), params.id, new URL(request.url).searchParams), { headers: { "Cache-Control": "no-store" } }),
);
