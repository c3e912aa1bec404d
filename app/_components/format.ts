/** Display formatting shared by the skills, datasets and home pages (pure; safe in client components). */

/** "812 B", "14.2 KB", "3.4 MB" (binary units, as file managers show sizes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

/** "2026-11-29 23:45" in the server's time zone; only called from server components, so no hydration mismatch. */
export function formatDateTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A 0–1 score with three decimals, or an en dash when there is none. */
export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined || !Number.isFinite(score) ? "–" : score.toFixed(3);
}

/** Thousands separators, so "48213" reads as "48,213". */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

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
