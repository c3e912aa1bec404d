/**
 * The one redaction step for text that is stored or logged: error messages (a model server's, the SDK's, ours), fail
 * reasons, run errors, and the server's and the CLI's log lines. Secrets can reach them in ways no single check
 * prevents (a key in a URL the SDK quotes, a proxy that echoes the Authorization header), so whatever reaches the
 * database or a log passes through here.
 *
 * Removed: credentials in URLs (`scheme://user:password@`), bearer tokens, `sk-…` keys, key-like query parameters,
 * and the configured secret values themselves (OPENAI_API_KEY, AZURE_OPENAI_API_KEY, SKILLBOARD_TOKEN), plain or
 * URL-encoded. Each becomes "[redacted]".
 */

export const REDACTED = "[redacted]";

/** Environment variables whose values are secrets wherever they appear. */
const SECRET_VARIABLES = ["OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "SKILLBOARD_TOKEN"] as const;

/** Shorter configured values are not secrets (a placeholder such as "x"), and replacing them would mangle words. */
const MIN_SECRET_LENGTH = 8;

const PATTERNS: [RegExp, string][] = [
  // scheme://user:password@host, scheme://token@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, `$1${REDACTED}@`],
  [/\b(bearer)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/\bsk-[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/([?&](?:api[-_]?key|key|token|access[-_]?token|auth|password|secret)=)[^&#\s"']+/gi, `$1${REDACTED}`],
];

export function redactSecrets(
  text: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  extraSecrets: readonly string[] = [],
): string {
  let result = text;
  // The known values first, so that a pattern cannot cut one in half and leave the rest readable.
  for (const secret of knownSecrets(env, extraSecrets)) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) result = result.split(form).join(REDACTED);
  }
  for (const [pattern, replacement] of PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

function knownSecrets(env: Readonly<Record<string, string | undefined>>, extra: readonly string[]): string[] {
  const values = [...SECRET_VARIABLES.map((name) => env[name]?.trim() ?? ""), ...extra.map((value) => value.trim())];
  // Longest first: one secret containing another is removed whole.
  return [...new Set(values.filter((value) => value.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}
