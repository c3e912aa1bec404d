/**
 * The headers every response carries, so that the dashboard cannot be framed (clickjacking: a hidden frame of
 * /runs/1 and one click on "Run again"), and so that injected markup could not run script.
 *
 * Scripts: only those carrying this response's nonce (Next puts it on its own inline bootstrap and chunk scripts when
 * it finds it in the request's Content-Security-Policy, see proxy.ts), and what they load ('strict-dynamic'); inline
 * event handlers and javascript: URLs never run. Styles may be inline: React and the charts write style attributes.
 * Pure (no Next imports) so the policy can be tested directly.
 */

import { randomBytes } from "node:crypto";

/** A fresh, unguessable nonce per response (16 random bytes, base64). */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/** The policy for a page rendered with `nonce`. `development`: `next dev` also needs eval for React's debugging aids. */
export function contentSecurityPolicy(nonce: string, options: { development?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** For responses that are never a page (the upload routes, which the proxy does not see): nothing may load at all. */
export const NO_CONTENT_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The headers that do not depend on the response: no framing (for browsers without CSP level 2), no MIME sniffing, no referrer to other sites. */
export const FIXED_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

export function securityHeaders(contentPolicy: string): Record<string, string> {
  return { "Content-Security-Policy": contentPolicy, ...FIXED_SECURITY_HEADERS };
}
