/**
 * GET /api/auth/check — {"ok":true} when the request is authorized (guardedRoute answers 401 otherwise, as the proxy
 * already has). Lets scripts test a token.
 */

import { guardedRoute } from "@/app/_lib/http";

export const dynamic = "force-dynamic";

export const GET = guardedRoute(() => Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } }));
