/**
 * The key of a cached model response: everything that determines the reply (backend, server, model, every request
 * parameter, the whole message list), as canonical JSON hashed with sha256. Never the API key: a cached reply is the
 * same whoever pays for it, and the key must not be derivable from what is stored.
 */
import { createHash } from "node:crypto";
import type { ChatMessage } from "./types";

export interface CacheKeyInput {
  backend: string;
  /** Redacted (no credentials): the server the request goes to. */
  baseURL?: string;
  model: string;
  /** Every request parameter that reaches the server (max tokens, temperature, …); undefined ones are left out. */
  params: Record<string, string | number | boolean | null | undefined>;
  messages: readonly ChatMessage[];
}

/** JSON with object keys sorted at every level, so the same request always gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function responseCacheKey(input: CacheKeyInput): string {
  const { backend, baseURL, model, params, messages } = input;
  const material = canonical({ v: 1, backend, baseURL: baseURL ?? null, model, params, messages: messages.map(({ role, content }) => ({ role, content })) });
  return createHash("sha256").update(material, "utf8").digest("hex");
}
