/** Name and attributes of the session cookie set by the sign-in endpoint. */

export const SESSION_COOKIE_NAME = "skillboard_token";

/** A signed-in browser stays signed in for 30 days, or until SKILLBOARD_TOKEN changes. */
const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export interface SessionCookieOptions {
  httpOnly: true;
  sameSite: "lax";
  secure: boolean;
  path: "/";
  maxAge: number;
}

/** HttpOnly (scripts in the page cannot read it), SameSite=Lax, Secure only on https. */
export function sessionCookieOptions(secure: boolean): SessionCookieOptions {
  return { httpOnly: true, sameSite: "lax", secure, path: "/", maxAge: SESSION_MAX_AGE_SECONDS };
}

/** The same attributes with an immediate expiry, which deletes the cookie. */
export function expiredSessionCookieOptions(secure: boolean): SessionCookieOptions {
  return { ...sessionCookieOptions(secure), maxAge: 0 };
}

/**
 * Whether the browser reached us over https: directly, or through a TLS-terminating reverse proxy
 * that says so in X-Forwarded-Proto. Trusting that header is harmless here: it can only add Secure.
 */
export function isHttpsRequest(url: string, headers: Headers): boolean {
  if (new URL(url).protocol === "https:") return true;
  const forwarded = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https";
}
