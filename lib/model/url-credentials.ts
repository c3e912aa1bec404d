/**
 * Model server URLs must not carry credentials (`http://user:sk-…@host/v1`): the SDK cannot send them (fetch refuses
 * such a URL), and its error message quotes the whole URL, so the key would end up in every failed item, the run page,
 * the exports and the log. They are refused where a URL comes in: the environment at start, --base-url, a new run.
 * Messages name the setting, never its value.
 */

import type { EnvSource } from "./environment";

/** True when `url` has a user name or password before its host (also when it does not parse as a URL). */
export function hasURLCredentials(url: string): boolean {
  const trimmed = url.trim();
  try {
    const parsed = new URL(trimmed);
    if (parsed.username || parsed.password) return true;
  } catch {
    // Not a URL the parser accepts: look at its text instead.
  }
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]*@/i.test(trimmed);
}

/** Why the URL in `setting` is refused, or undefined when it has no credentials. `keySetting`: where the key belongs. */
export function urlCredentialsProblem(setting: string, url: string | undefined, keySetting: string): string | undefined {
  if (url === undefined || !hasURLCredentials(url)) return undefined;
  return (
    `${setting} has credentials in it (a user name or password before the host): they would be quoted in every error ` +
    `message and log. Remove them from the URL, and put the key in ${keySetting} instead.`
  );
}

/** What is wrong with the model server URLs of the environment (OPENAI_BASE_URL, AZURE_OPENAI_ENDPOINT); empty if nothing. */
export function modelEnvironmentProblems(env: EnvSource = process.env): string[] {
  const value = (name: string) => env[name]?.trim() || undefined;
  return [
    urlCredentialsProblem("OPENAI_BASE_URL", value("OPENAI_BASE_URL"), "OPENAI_API_KEY"),
    urlCredentialsProblem("AZURE_OPENAI_ENDPOINT", value("AZURE_OPENAI_ENDPOINT"), "AZURE_OPENAI_API_KEY"),
  ].filter((problem): problem is string => problem !== undefined);
}
