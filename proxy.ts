/**
 * Access control for the whole dashboard (Next 16 "proxy", formerly middleware; Node.js runtime).
 *
 * Why: the dashboard spends the user's model credits and shows their data. When SKILLBOARD_TOKEN is
 * set (required by scripts/start.mjs for any non-loopback address), every page, server action, route
 * handler and download needs the token, as the session cookie from /signin or `Authorization: Bearer`.
 * Open: the sign-in page (GET /signin), the sign-in endpoint (POST /api/auth/signin), and Next's static
 * assets (/_next/static, /_next/image, /favicon.ico, excluded by the matcher below) which hold no data.
 * Pages redirect (303) to /signin?next=<path>; everything else gets 401 {"error":"authentication required"}.
 *
 * Without a token everything passes, except cross-site and DNS-rebinding requests from a browser
 * (see lib/auth/access-policy.ts): the server is reachable from this machine only.
 *
 * Route handlers and server actions may still check for themselves with isRequestAuthorized from
 * lib/auth/request-auth (the docs advise not relying on a proxy alone).
 */

import { NextResponse, type NextRequest } from "next/server";
import { decideAccess } from "@/lib/auth/access-policy";
import { configuredToken } from "@/lib/auth/token";

export function proxy(request: NextRequest): NextResponse {
  const decision = decideAccess(
    {
      method: request.method,
      pathname: request.nextUrl.pathname,
      search: request.nextUrl.search,
      headers: request.headers,
    },
    configuredToken(),
  );
  switch (decision.kind) {
    case "allow":
      return NextResponse.next();
    case "sign-in":
      return NextResponse.redirect(new URL(decision.location, request.url), 303);
    case "refuse":
      return NextResponse.json(
        { error: decision.error },
        {
          status: decision.status,
          headers: decision.status === 401 ? { "WWW-Authenticate": 'Bearer realm="skillboard"' } : {},
        },
      );
  }
}

export const config = {
  // Static build output and the favicon carry no data. The dataset upload and results import routes apply the same
  // rules themselves (lib/auth/guard-request.ts): through the proxy, Next would buffer their bodies (up to 200 MB) in memory.
  matcher: ["/((?!_next/static/|_next/image|favicon\\.ico$|api/datasets$|api/runs/import$).*)"],
};
