/**
 * Where to send the browser after signing in: a path on this site, never another origin. Anything
 * that is not a plain absolute path ("https://…", "//host", "/\host", control characters) becomes "/".
 */

const PLACEHOLDER_ORIGIN = "http://skillboard.invalid";

export function safeNextPath(raw: unknown): string {
  if (typeof raw !== "string" || !raw.startsWith("/") || raw.startsWith("//")) return "/";
  // Browsers read "\" as "/", so "/\evil.com" would leave the site; control characters are never needed.
  if (/[\\\p{Cc}]/u.test(raw)) return "/";
  let url: URL;
  try {
    url = new URL(raw, PLACEHOLDER_ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return "/";
  // Back to the sign-in page or endpoint after signing in would be a pointless loop.
  if (url.pathname === "/signin" || url.pathname.startsWith("/api/auth/")) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}
