/**
 * Access control and security headers for the whole dashboard (Next 16 "proxy", formerly middleware; Node.js runtime).
 *
 * Why: the dashboard spends the user's model credits and shows their data. When SKILLBOARD_TOKEN is
 * set (required by scripts/start.mjs for any non-loopback address), every page, server action, route
 * handler and download needs the token, as the session cookie from /signin or `Authorization: Bearer`.
 * Open: the sign-in page (GET /signin), the sign-in endpoint (POST /api/auth/signin), and Next's static
 * assets (GET /_next/static/…), which hold no data.
 * Pages redirect (303) to /signin?next=<path>; everything else gets 401 {"error":"authentication required"}.
 *
 * Without a token everything passes, except cross-site and DNS-rebinding requests from a browser
 * (see lib/auth/access-policy.ts): the server is reachable from this machine only.
 *
 * The proxy sees every path (see the matcher): Next runs a server action posted to any path that reaches its
 * renderer, a 404 such as /favicon.ico or /_next/imagex included, so no path may skip these rules.
 *
 * Every response gets the security headers of lib/auth/security-headers.ts, with a fresh script nonce that is also
 * passed on in the request's Content-Security-Policy header, where Next reads it to mark its own scripts.
 *
 * Route handlers and server actions may still check for themselves with isRequestAuthorized from
 * lib/auth/request-auth (the docs advise not relying on a proxy alone).
 */

import { NextResponse, type NextRequest } from "next/server";
import { decideAccess } from "@/lib/auth/access-policy";
import { contentSecurityPolicy, newNonce, securityHeaders } from "@/lib/auth/security-headers";
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
  const policy = contentSecurityPolicy(newNonce(), { development: process.env.NODE_ENV === "development" });
  let response: NextResponse;
  switch (decision.kind) {
    case "allow": {
      const forwarded = new Headers(request.headers);
      forwarded.set("Content-Security-Policy", policy);
      response = NextResponse.next({ request: { headers: forwarded } });
      break;
    }
    case "sign-in":
      response = NextResponse.redirect(new URL(decision.location, request.url), 303);
      break;
    case "refuse":
      response = NextResponse.json(
        { error: decision.error },
        {
          status: decision.status,
          headers: decision.status === 401 ? { "WWW-Authenticate": 'Bearer realm="skillboard"' } : {},
        },
      );
  }
  for (const [name, value] of Object.entries(securityHeaders(policy))) response.headers.set(name, value);
  return response;
}

export const config = {
  // Every path but three: the dataset upload, results import and SkillOpt zip import routes, which apply the same rules themselves
  // (lib/auth/guard-request.ts) because through the proxy Next would buffer their bodies (up to 200 MB) in memory;
  // next.config.ts gives them the security headers. Route handlers never run server actions.
  matcher: ["/((?!api/datasets$|api/runs/import$|api/optimizations/import$).*)"],
};
