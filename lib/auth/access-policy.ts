/**
 * What the proxy does with a request: let it through, send a browser to the sign-in page, or refuse.
 * Pure (no Next imports) so the rules can be tested directly; proxy.ts only turns decisions into responses.
 *
 * With SKILLBOARD_TOKEN set, everything but the sign-in page and endpoint, and reads of Next's static build output
 * (/_next/static/…), needs the token (cookie or bearer). Without it everything passes (scripts/start.mjs keeps the
 * server on loopback), except two
 * attacks a browser can still be made to carry out:
 * - cross-site requests (another site, or another app on localhost, posting with the user's browser):
 *   in both modes, state-changing requests whose Origin is not this host are refused, as Next itself
 *   does for server actions;
 * - DNS rebinding (a web page whose name now resolves to 127.0.0.1): without a token, only requests
 *   addressed to a loopback name (localhost, 127.x.x.x, [::1]) are answered. With a token this is
 *   moot, since the browser would not send our cookie to the attacker's name.
 */

import { isLoopbackHost } from "./host-policy.mjs";
import { hasValidCredentials } from "./request-auth";

export interface RequestFacts {
  method: string;
  /** e.g. "/runs/3" */
  pathname: string;
  /** "" or e.g. "?tab=items" */
  search: string;
  headers: Headers;
}

export type AccessDecision =
  | { kind: "allow" }
  | { kind: "sign-in"; location: string }
  | { kind: "refuse"; status: 401 | 403; error: string };

export const AUTHENTICATION_REQUIRED = "authentication required";
export const CROSS_ORIGIN_REFUSED = "cross-origin request refused";
export const LOOPBACK_ONLY = "this dashboard only answers on localhost unless SKILLBOARD_TOKEN is set";

export const SIGNIN_PAGE = "/signin";
export const SIGNIN_ENDPOINT = "/api/auth/signin";
export const STATIC_ASSETS_PREFIX = "/_next/static/";

export function decideAccess(request: RequestFacts, token: string | undefined): AccessDecision {
  const method = request.method.toUpperCase();
  const readOnly = method === "GET" || method === "HEAD";
  if (!readOnly && !isSameOrigin(request.headers)) return { kind: "refuse", status: 403, error: CROSS_ORIGIN_REFUSED };

  if (token === undefined) {
    const hostname = hostnameOf(request.headers.get("host"));
    return hostname !== undefined && isLoopbackHost(hostname)
      ? { kind: "allow" }
      : { kind: "refuse", status: 403, error: LOOPBACK_ONLY };
  }

  const { pathname } = request;
  if ((readOnly && pathname === SIGNIN_PAGE) || (method === "POST" && pathname === SIGNIN_ENDPOINT)) return { kind: "allow" };
  // Next's build output (scripts, styles) holds no data, and the sign-in page needs it.
  if (readOnly && pathname.startsWith(STATIC_ASSETS_PREFIX)) return { kind: "allow" };
  if (hasValidCredentials(request.headers, token)) return { kind: "allow" };
  if (isPageRequest(request)) {
    const next = `${pathname}${request.search}`;
    return { kind: "sign-in", location: `${SIGNIN_PAGE}?${new URLSearchParams({ next })}` };
  }
  return { kind: "refuse", status: 401, error: AUTHENTICATION_REQUIRED };
}

/**
 * A browser navigation that can be redirected to the sign-in page. Route handlers (/api/…), server
 * actions (POST with Next-Action), any other non-GET request and file downloads (a last path segment
 * with an extension, e.g. results.csv) get a 401 instead, which a script or fetch() can act on.
 */
function isPageRequest(request: RequestFacts): boolean {
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD") return false;
  if (request.pathname === "/api" || request.pathname.startsWith("/api/")) return false;
  if (request.headers.has("next-action")) return false;
  const lastSegment = request.pathname.slice(request.pathname.lastIndexOf("/") + 1);
  return !/\.[A-Za-z0-9]{1,8}$/.test(lastSegment);
}

/** No Origin (curl, scripts, same-origin GETs) counts as same-origin; "null" or another host does not. */
function isSameOrigin(headers: Headers): boolean {
  const origin = headers.get("origin");
  if (origin === null) return true;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  try {
    return host !== null && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** "127.0.0.1:3000" → "127.0.0.1", "[::1]:3000" → "[::1]"; undefined when missing or malformed. */
function hostnameOf(hostHeader: string | null): string | undefined {
  // Only host[:port] characters: the URL parser would otherwise read "evil.com@127.0.0.1" as 127.0.0.1.
  if (!hostHeader || !/^[A-Za-z0-9.:[\]-]+$/.test(hostHeader)) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return undefined;
  }
}
