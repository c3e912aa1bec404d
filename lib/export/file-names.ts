/** "Search QA (v2)!" → "search-qa-v2": safe in a file name on every OS; `fallback` when nothing is left. */
export function fileSlug(label: string, fallback: string): string {
  const slug = label
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug || fallback;
}

/** Download names: `skillboard-<kind>-<id>-<slug>.<ext>`. */
export function downloadFileName(kind: string, id: number | string, label: string, extension: string): string {
  return `skillboard-${kind}-${id}-${fileSlug(label, kind)}.${extension}`;
}

/** A Content-Disposition header value for such a name (always ASCII, so no RFC 5987 form is needed). */
export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${fileName}"`;
}
