/** File-name helpers of the upload forms (pure; safe in client components). */

/** `name` without its last extension: "searchqa-v2.md" → "searchqa-v2". */
export function baseName(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

/** The lower-cased extension with its dot (".md"), or "" when there is none. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot > 0 ? fileName.slice(dot).toLowerCase() : "";
}
