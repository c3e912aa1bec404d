// The one redaction step every stored or logged error text passes through.
import { describe, expect, it } from "vitest";
import { redactSecrets } from "@/lib/text/redact-secrets";

const ENV = {
  OPENAI_API_KEY: "plain-openai-key-7f3a9c",
  AZURE_OPENAI_API_KEY: "0123456789abcdef0123456789abcdef",
  SKILLBOARD_TOKEN: "dashboard-token-5e1d2c8b",
};

describe("redactSecrets", () => {
  it.each([
    ["URL credentials", "connect to http://user:sk-live-abcdef123456@proxy.example:8080/v1/chat failed", "sk-live-abcdef123456", "user:"],
    ["URL credentials without a scheme's slashes parsed", "https://admin:hunter2hunter2@10.0.0.5/v1", "hunter2hunter2", "admin:"],
    ["a user name alone", "GET https://apikey-9f8e7d6c5b@host/v1", "apikey-9f8e7d6c5b", "apikey-9f8e7d6c5b@"],
    ["a bearer token", "upstream said: Authorization: Bearer eyJhbGciOi.JIUzI1NiJ9-abc_def", "eyJhbGciOi.JIUzI1NiJ9-abc_def", "Bearer eyJ"],
    ["a lower-case bearer token", "bearer   tok_1234567890abcdef", "tok_1234567890abcdef", "tok_"],
    ["an sk- key", "Incorrect API key provided: sk-proj-AbCdEf1234567890XyZ.", "sk-proj-AbCdEf1234567890XyZ", "AbCdEf"],
    ["an sk- key in JSON", '{"error":"bad key \\"sk-abcdefghijklmnop\\""}', "sk-abcdefghijklmnop", "abcdefghijklmnop"],
    ["a key in a query string", "https://res.openai.azure.com/openai?api-key=azkey99887766&x=1", "azkey99887766", "azkey"],
    ["the configured OpenAI key", "the server echoed plain-openai-key-7f3a9c back", "plain-openai-key-7f3a9c", "7f3a9c"],
    ["the configured Azure key", "key 0123456789abcdef0123456789abcdef is not valid", "0123456789abcdef0123456789abcdef", "0123456789abcdef"],
    ["the dashboard token", "token dashboard-token-5e1d2c8b refused", "dashboard-token-5e1d2c8b", "5e1d2c8b"],
    ["a configured key, URL-encoded", "http://x/?k=plain-openai-key-7f3a9c%20", "plain-openai-key-7f3a9c", "7f3a9c"],
  ])("removes %s", (_label, text, secret, fragment) => {
    const redacted = redactSecrets(text, ENV);
    expect(redacted).not.toContain(secret);
    expect(redacted).not.toContain(fragment);
    expect(redacted).toContain("[redacted]");
  });

  it("removes every occurrence, and any extra secret it is given", () => {
    const text = "sk-aaaaaaaaaaaaaaaa then sk-bbbbbbbbbbbbbbbb, model-key-xyz-123456 and model-key-xyz-123456";
    const redacted = redactSecrets(text, {}, ["model-key-xyz-123456"]);
    expect(redacted).toBe("[redacted] then [redacted], [redacted] and [redacted]");
  });

  it.each([
    "model server error (500 Internal Server Error): upstream overloaded",
    "could not reach the model server: connect ECONNREFUSED 127.0.0.1:8000",
    "see https://platform.openai.com/docs/guides/error-codes for details",
    "task-timeout-660s",
    "email me at someone@example.com",
    "wrong answer: predicted 'Paris', gold 'Lyon'",
    "risk-assessment and task-list",
  ])("leaves ordinary text as it is: %j", (text) => {
    expect(redactSecrets(text, ENV)).toBe(text);
  });

  it("ignores configured values too short to be secrets", () => {
    expect(redactSecrets("a b c no", { OPENAI_API_KEY: "no", SKILLBOARD_TOKEN: " " })).toBe("a b c no");
  });
});
