import { describe, expect, it } from "vitest";
import { responseCacheKey, type CacheKeyInput } from "@/lib/model/response-cache-key";

const base: CacheKeyInput = {
  backend: "openai",
  baseURL: "http://127.0.0.1:8000/v1",
  model: "gpt-4.1-mini",
  params: { maxCompletionTokens: 16384, temperature: 0 },
  messages: [{ role: "system", content: "skill" }, { role: "user", content: "question" }],
};

describe("response cache key", () => {
  it("is the same for the same request, whatever the order of its parameters", () => {
    expect(responseCacheKey({ ...base, params: { temperature: 0, maxCompletionTokens: 16384 } })).toBe(responseCacheKey(base));
    expect(responseCacheKey(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ["backend", { backend: "azure" }],
    ["server", { baseURL: "http://127.0.0.1:9000/v1" }],
    ["model", { model: "gpt-4.1" }],
    ["a parameter's value", { params: { maxCompletionTokens: 100, temperature: 0 } }],
    ["an added parameter", { params: { ...base.params, topP: 0.9 } }],
    ["a message's text", { messages: [{ role: "system", content: "skill v2" }, base.messages[1]!] }],
    ["a message's role", { messages: [{ role: "user", content: "skill" }, base.messages[1]!] }],
    ["an added turn", { messages: [...base.messages, { role: "assistant", content: "a" }] }],
  ] as const)("changes with %s", (_, change) => {
    expect(responseCacheKey({ ...base, ...change } as CacheKeyInput)).not.toBe(responseCacheKey(base));
  });

  it("never contains the API key, which is not among its inputs", () => {
    const input = { ...base, apiKey: "sk-secret-123" } as CacheKeyInput & { apiKey: string };
    expect(responseCacheKey(input)).toBe(responseCacheKey(base));
  });
});
