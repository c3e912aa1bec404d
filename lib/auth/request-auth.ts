/**
 * Does a request carry the access token? Either `Authorization: Bearer <token>` (scripts) or the
 * session cookie set by the sign-in endpoint (browsers). Works on any Web `Headers`, so the proxy,
 * route handlers and server actions (`await headers()` from next/headers) can all ask.
 */

import { SESSION_COOKIE_NAME } from "./session-cookie";
import { configuredToken, sessionCookieMatches, tokenMatches } from "./token";

/** The credentials in `Authorization: Bearer <credentials>` (scheme case-insensitive), if any. */
export function bearerCredentials(authorization: string | null): string | undefined {
  const match = /^Bearer +(.+)$/i.exec(authorization ?? "");
  return match?.[1];
}

/** Every value of the session cookie in a Cookie header (a browser may send the name more than once). */
export function sessionCookieValues(cookieHeader: string | null): string[] {
  if (!cookieHeader) return [];
  const values: string[] = [];
  for (const pair of cookieHeader.split(";")) {
    const separator = pair.indexOf("=");
    if (separator < 0 || pair.slice(0, separator).trim() !== SESSION_COOKIE_NAME) continue;
    values.push(pair.slice(separator + 1).trim().replace(/^"(.*)"$/, "$1"));
  }
  return values;
}

export function hasValidCredentials(headers: Headers, token: string): boolean {
  const bearer = bearerCredentials(headers.get("authorization"));
  if (bearer !== undefined && tokenMatches(bearer, token)) return true;
  return sessionCookieValues(headers.get("cookie")).some((value) => sessionCookieMatches(value, token));
}

/**
 * The token part of the access policy alone: true when no token is configured, or when the request carries
 * it. Route handlers and server actions check the whole policy instead (guardedRoute, guardedAction in app/_lib).
 */
export function isRequestAuthorized(headers: Headers, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const token = configuredToken(env);
  return token === undefined || hasValidCredentials(headers, token);
}
