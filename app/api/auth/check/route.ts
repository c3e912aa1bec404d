/**
 * GET /api/auth/check — {"ok":true} when the request is authorized (the proxy has already refused it
 * otherwise). Lets scripts test a token, and shows route handlers how to check for themselves.
 */

import { isRequestAuthorized } from "@/lib/auth/request-auth";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  if (!isRequestAuthorized(request.headers)) {
    return Response.json({ error: "authentication required" }, { status: 401 });
  }
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}
