/** POST /api/auth/signout — deletes the session cookie and goes to the sign-in page (POST only, so a prefetch cannot sign anyone out). */

import { NextResponse } from "next/server";
import { guardedRoute } from "@/app/_lib/http";
import { SESSION_COOKIE_NAME, expiredSessionCookieOptions, isHttpsRequest } from "@/lib/auth/session-cookie";

export const POST = guardedRoute((request) => {
  const response = new NextResponse(null, { status: 303, headers: { Location: "/signin", "Cache-Control": "no-store" } });
  response.cookies.set(SESSION_COOKIE_NAME, "", expiredSessionCookieOptions(isHttpsRequest(request.url, request.headers)));
  return response;
});
