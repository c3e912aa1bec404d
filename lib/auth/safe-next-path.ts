/**
 * Where to send the browser after signing in: a path on this site, never another origin.
 *
 * The value is normalised first (resolved against a placeholder origin, as a browser resolves a link), and only then
 * checked: "/.//evil.example" and "/%2e//evil.example" are plain-looking paths that normalise to "//evil.example",
 * which a browser reads as another site. Anything that is not, after normalisation, a path on the same origin that
 * resolves to itself again becomes "/": absolute URLs, "//host", backslashes (browsers read "\" as "/"), and control
 * characters (the URL parser silently drops tabs and newlines, so "/\t/evil" would be "//evil").
 */

const PLACEHOLDER_ORIGIN = "http://skillboard.invalid";

export function safeNextPath(raw: unknown): string {
  if (typeof raw !== "string" || !raw.startsWith("/")) return "/";
  if (/[\\\p{Cc}]/u.test(raw)) return "/";
  const url = sameOriginURL(raw);
  if (!url) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The normalised path must still be a path (not "//host"), and read the same when the browser resolves it in turn.
  if (path.startsWith("//") || sameOriginURL(path)?.href !== url.href) return "/";
  // Back to the sign-in page or endpoint after signing in would be a pointless loop.
  if (url.pathname === "/signin" || url.pathname.startsWith("/api/auth/")) return "/";
  return path;
}

function sameOriginURL(path: string): URL | undefined {
  try {
    const url = new URL(path, PLACEHOLDER_ORIGIN);
    return url.origin === PLACEHOLDER_ORIGIN ? url : undefined;
  } catch {
    return undefined;
  }
}
