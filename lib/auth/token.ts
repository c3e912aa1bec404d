/**
 * The access token (SKILLBOARD_TOKEN) and the session cookie derived from it.
 *
 * The cookie holds HMAC-SHA256(key = token, message = a fixed label), never the token itself: the token
 * does not travel back to the browser, and every cookie stops working as soon as the token changes.
 * Comparisons hash both sides first and use timingSafeEqual, so neither content nor length leaks
 * through timing. node:crypto is available because Next 16 runs proxy.ts on the Node.js runtime.
 */

import { createHash, createHmac, timingSafeEqual } from "node:crypto";

const SESSION_LABEL = "skillboard session v1";

/** The configured token, or undefined when access control is off (unset or empty). */
export function configuredToken(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  return env.SKILLBOARD_TOKEN || undefined;
}

/** Constant-time equality of two strings of any lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

export function tokenMatches(candidate: string, token: string): boolean {
  return constantTimeEqual(candidate, token);
}

/** The session cookie's value for this token. */
export function sessionCookieValue(token: string): string {
  return createHmac("sha256", token).update(SESSION_LABEL).digest("base64url");
}

export function sessionCookieMatches(cookieValue: string, token: string): boolean {
  return constantTimeEqual(cookieValue, sessionCookieValue(token));
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
