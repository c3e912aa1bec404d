/**
 * A relative path that stays inside the folder it is joined to: forward slashes, no empty, "." or ".."
 * segments, no leading slash, no NUL or backslash. Checked on config values and on every path a browser asks for.
 */
export function isSafeRelativePath(path: string): boolean {
  if (path.length === 0 || path.length > 1024) return false;
  if (path.includes("\0") || path.includes("\\") || path.startsWith("/")) return false;
  return path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}
