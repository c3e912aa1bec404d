/**
 * POST /api/auth/signin — exchanges the access token for the session cookie (open: the access policy lets it
 * through, from this site only). Form posts and JSON both get a 303: to the `next` path on success, back to the
 * sign-in page with an error otherwise (JSON failures get a 400/401 JSON error body instead). Failures wait a fixed
 * 300 ms and say nothing about why the token was wrong.
 */

import { NextResponse } from "next/server";
import { errorResponse, guardedRoute } from "@/app/_lib/http";
import { safeNextPath } from "@/lib/auth/safe-next-path";
import { SESSION_COOKIE_NAME, isHttpsRequest, sessionCookieOptions } from "@/lib/auth/session-cookie";
import { readSignInRequest } from "@/lib/auth/signin-request";
import { configuredToken, sessionCookieValue, tokenMatches } from "@/lib/auth/token";

const FAILURE_DELAY_MS = 300;

export const POST = guardedRoute(async (request) => {
  const signIn = await readSignInRequest(request);
  const next = safeNextPath(signIn.ok ? signIn.fields.next : signIn.next);
  const token = configuredToken();
  // No token configured: nothing to sign in to, the dashboard is open (on loopback only).
  if (token === undefined) return seeOther(next);

  if (!signIn.ok || !tokenMatches(signIn.fields.token, token)) {
    await new Promise((resolve) => setTimeout(resolve, FAILURE_DELAY_MS));
    if (signIn.json) {
      return signIn.ok
        ? errorResponse(401, { error: "wrong token" })
        : errorResponse(400, { error: "expected {\"token\": string, \"next\"?: string}" });
    }
    return seeOther(`/signin?${new URLSearchParams({ error: signIn.ok ? "wrong-token" : "missing-token", next })}`);
  }

  const response = seeOther(next);
  response.cookies.set(SESSION_COOKIE_NAME, sessionCookieValue(token), sessionCookieOptions(isHttpsRequest(request.url, request.headers)));
  return response;
});

/** A relative Location: the browser stays on whatever origin it used, whatever the Host header said. */
function seeOther(path: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { Location: path, "Cache-Control": "no-store" } });
}
