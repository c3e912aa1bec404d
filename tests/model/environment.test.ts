// Model configuration from the environment: what is reported, which backend is chosen, and key handling.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatModel, defaultBackend, readModelEnvironment, redactBaseURL } from "../../lib/model";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fake-openai-server";

const OPENAI_KEY = "sk-proj-SECRET-openai-1234567890";
const AZURE_KEY = "azure-SECRET-key-0987654321";
const SETTINGS = { callTimeoutMs: 2_000, maxRetries: 0 };
const request = { messages: [{ role: "user" as const, content: "## Question\nq [[ANSWER: ok]]" }], maxCompletionTokens: 16 };

describe("readModelEnvironment", () => {
  it("reports what is configured without any key value", () => {
    const env = {
      OPENAI_API_KEY: OPENAI_KEY,
      OPENAI_BASE_URL: "https://user:pass@proxy.example.com/v1?token=abc#frag",
      SKILLBOARD_MODEL: "gpt-4.1-mini",
      AZURE_OPENAI_ENDPOINT: "https://res.openai.azure.com/",
      AZURE_OPENAI_API_KEY: AZURE_KEY,
      AZURE_OPENAI_DEPLOYMENT: "prod-4o",
    };
    const result = readModelEnvironment(env);
    expect(result).toEqual({
      openai: { baseURL: "https://proxy.example.com/v1", apiKeyPresent: true, model: "gpt-4.1-mini" },
      azure: { endpoint: "https://res.openai.azure.com", deployment: "prod-4o", apiVersion: "2024-10-21", apiKeyPresent: true },
      defaultModel: "gpt-4.1-mini",
    });
    const shown = JSON.stringify(result);
    for (const secret of [OPENAI_KEY, AZURE_KEY, "pass", "token=abc"]) expect(shown).not.toContain(secret);
  });

  it("falls back to gpt-4o-mini and reports a missing key", () => {
    expect(readModelEnvironment({ OPENAI_BASE_URL: "http://127.0.0.1:8000/v1" })).toEqual({
      openai: { baseURL: "http://127.0.0.1:8000/v1", apiKeyPresent: false, model: "gpt-4o-mini" },
      defaultModel: "gpt-4o-mini",
    });
    expect(readModelEnvironment({})).toEqual({ defaultModel: "extractive-baseline" });
  });
});

describe("defaultBackend", () => {
  it("prefers OpenAI, then a complete Azure setup, else the baseline", () => {
    const azure = { AZURE_OPENAI_ENDPOINT: "https://r.openai.azure.com", AZURE_OPENAI_API_KEY: AZURE_KEY, AZURE_OPENAI_DEPLOYMENT: "d" };
    expect(defaultBackend({ OPENAI_API_KEY: OPENAI_KEY, ...azure })).toBe("openai");
    expect(defaultBackend({ OPENAI_BASE_URL: "http://localhost:11434/v1" })).toBe("openai");
    expect(defaultBackend(azure)).toBe("azure");
    expect(defaultBackend({ ...azure, AZURE_OPENAI_API_KEY: "" })).toBe("baseline");
    expect(defaultBackend({ OPENAI_API_KEY: "  " })).toBe("baseline");
  });
});

describe("redactBaseURL", () => {
  it.each([
    ["https://user:pw@api.example.com/v1?key=1#x", "https://api.example.com/v1"],
    ["http://127.0.0.1:8000/v1/", "http://127.0.0.1:8000/v1"],
    ["http://localhost:11434", "http://localhost:11434"],
    ["user:pw@not a url?key=1", "not a url"],
  ])("%s -> %s", (input, expected) => {
    expect(redactBaseURL(input)).toBe(expected);
  });
});

describe("createChatModel", () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await startFakeOpenAIServer({ requireApiKey: OPENAI_KEY });
  });
  afterAll(() => server.close());

  it("builds the baseline without any configuration", () => {
    expect(createChatModel({ backend: "baseline" }, SETTINGS, {})).toMatchObject({ backend: "baseline", model: "extractive-baseline" });
  });

  it("explains what to set when a backend is not configured", () => {
    expect(() => createChatModel({ backend: "openai" }, SETTINGS, {})).toThrow(/OpenAI is not configured: set OPENAI_API_KEY/);
    expect(() => createChatModel({ backend: "azure" }, SETTINGS, { AZURE_OPENAI_API_KEY: AZURE_KEY })).toThrow(
      "Azure OpenAI is not configured: set AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_DEPLOYMENT",
    );
  });

  it("refuses a server URL with credentials in it, for every backend, without repeating them", () => {
    const withKey = (url: string) => url.replace("http://", `http://user:${OPENAI_KEY}@`);
    const cases: [Parameters<typeof createChatModel>[0], Record<string, string>, string][] = [
      [{ backend: "openai" }, { OPENAI_BASE_URL: withKey(server.baseURL) }, "OPENAI_BASE_URL"],
      [{ backend: "baseline" }, { OPENAI_BASE_URL: withKey(server.baseURL) }, "OPENAI_BASE_URL"],
      [{ backend: "azure" }, { AZURE_OPENAI_ENDPOINT: withKey(server.origin), AZURE_OPENAI_API_KEY: AZURE_KEY, AZURE_OPENAI_DEPLOYMENT: "d" }, "AZURE_OPENAI_ENDPOINT"],
      [{ backend: "openai", model: "m", baseURL: withKey(server.baseURL) }, {}, "the run's base URL"],
    ];
    for (const [selection, env, setting] of cases) {
      let message = "";
      try {
        createChatModel(selection, SETTINGS, env);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain(`${setting} has credentials in it`);
      expect(message).not.toContain(OPENAI_KEY);
    }
  });

  it("uses the environment's server, key and default model", async () => {
    const model = createChatModel({ backend: "openai" }, SETTINGS, { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: server.baseURL });
    expect(model).toMatchObject({ backend: "openai", model: "gpt-4o-mini" });
    expect((await model.complete(request)).text).toContain("<answer>ok</answer>");
  });

  it("sends the key to a chosen base URL only when it is the configured server", async () => {
    const env = { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: server.baseURL };
    const same = createChatModel({ backend: "openai", model: "m", baseURL: `${server.baseURL}/` }, SETTINGS, env);
    await expect(same.complete(request)).resolves.toMatchObject({ attempts: 1 });
    const other = createChatModel({ backend: "openai", model: "m", baseURL: server.baseURL.replace("127.0.0.1", "localhost") }, SETTINGS, env);
    await expect(other.complete(request)).rejects.toMatchObject({ name: "FatalModelError", status: 401 });
  });

  it("creates an Azure model from the environment", async () => {
    server.setOptions({ requireApiKey: AZURE_KEY });
    const env = { AZURE_OPENAI_ENDPOINT: server.origin, AZURE_OPENAI_API_KEY: AZURE_KEY, AZURE_OPENAI_DEPLOYMENT: "dep" };
    const model = createChatModel({ backend: "azure" }, SETTINGS, env);
    expect(model).toMatchObject({ backend: "azure", model: "dep" });
    expect((await model.complete(request)).text).toContain("<answer>ok</answer>");
    server.setOptions({ requireApiKey: OPENAI_KEY });
  });
});
