/**
 * Model configuration from the environment. Keys are read only when a model is created and never
 * leave this module: what it reports says whether a key is present, not what it is.
 */

import type { RequestGate } from "./limits/request-gate";
import { createBaselineChatModel, BASELINE_MODEL_NAME } from "./baseline-chat-model";
import { createAzureChatModel, createOpenAIChatModel } from "./openai-chat-model";
import type { BackoffOptions } from "./backoff";
import type { ChatModel } from "./types";
import { modelEnvironmentProblems, urlCredentialsProblem } from "./url-credentials";

export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";
export const DEFAULT_AZURE_API_VERSION = "2024-10-21";
const OPENAI_API_BASE_URL = "https://api.openai.com/v1";

/**
 * process.env or any plain object of variables (NodeJS.ProcessEnv fits; a plain object is easier in tests,
 * since Next's types make NODE_ENV a required member of ProcessEnv).
 */
export type EnvSource = Readonly<Record<string, string | undefined>>;

export interface ModelEnvironment {
  openai?: { baseURL?: string; apiKeyPresent: boolean; model?: string };
  azure?: { endpoint: string; deployment: string; apiVersion: string; apiKeyPresent: boolean };
  defaultModel?: string;
}

export interface ModelSelection {
  backend: "openai" | "azure" | "baseline";
  model?: string;
  baseURL?: string;
}

export interface ModelCallSettings {
  callTimeoutMs: number;
  maxRetries: number;
  backoff?: BackoffOptions;
  gate?: RequestGate;
}

/** What is configured, safe to show in the dashboard and to store (no key values, URLs redacted). */
export function readModelEnvironment(env: EnvSource = process.env): ModelEnvironment {
  const vars = readVars(env);
  const result: ModelEnvironment = {};
  if (vars.openaiKey || vars.openaiBaseURL) {
    result.openai = {
      ...(vars.openaiBaseURL ? { baseURL: redactBaseURL(vars.openaiBaseURL) } : {}),
      apiKeyPresent: Boolean(vars.openaiKey),
      model: vars.model,
    };
  }
  if (vars.azureEndpoint && vars.azureDeployment) {
    result.azure = {
      endpoint: redactBaseURL(vars.azureEndpoint),
      deployment: vars.azureDeployment,
      apiVersion: vars.azureApiVersion,
      apiKeyPresent: Boolean(vars.azureKey),
    };
  }
  const backend = defaultBackend(env);
  result.defaultModel = backend === "openai" ? vars.model : backend === "azure" ? vars.azureDeployment : BASELINE_MODEL_NAME;
  return result;
}

export function defaultBackend(env: EnvSource = process.env): "openai" | "azure" | "baseline" {
  const vars = readVars(env);
  if (vars.openaiKey || vars.openaiBaseURL) return "openai";
  if (vars.azureEndpoint && vars.azureKey && vars.azureDeployment) return "azure";
  return "baseline";
}

export function createChatModel(
  selection: ModelSelection,
  settings: ModelCallSettings,
  env: EnvSource = process.env,
): ChatModel {
  const vars = readVars(env);
  // Credentials in a server URL would be quoted in every error: refused before any model is built (see url-credentials.ts).
  const urlProblem = modelEnvironmentProblems(env)[0] ?? urlCredentialsProblem("the run's base URL", selection.baseURL, "OPENAI_API_KEY");
  if (urlProblem) throw new Error(urlProblem);
  const callOptions = { callTimeoutMs: settings.callTimeoutMs, maxRetries: settings.maxRetries, backoff: settings.backoff, gate: settings.gate };
  switch (selection.backend) {
    case "baseline":
      return createBaselineChatModel();
    case "openai": {
      const target = openAITarget(selection.baseURL, vars);
      return createOpenAIChatModel({ ...target, model: selection.model ?? vars.model, ...callOptions });
    }
    case "azure": {
      const deployment = selection.model ?? vars.azureDeployment;
      const missing = [
        vars.azureEndpoint ? "" : "AZURE_OPENAI_ENDPOINT",
        vars.azureKey ? "" : "AZURE_OPENAI_API_KEY",
        deployment ? "" : "AZURE_OPENAI_DEPLOYMENT",
      ].filter(Boolean);
      if (!vars.azureEndpoint || !vars.azureKey || !deployment) {
        throw new Error(`Azure OpenAI is not configured: set ${missing.join(", ")}`);
      }
      return createAzureChatModel({
        endpoint: vars.azureEndpoint,
        apiKey: vars.azureKey,
        deployment,
        apiVersion: vars.azureApiVersion,
        ...callOptions,
      });
    }
  }
}

/**
 * Where to send OpenAI-style requests, and with which key. The key from the environment only goes to
 * the server the environment names (OPENAI_BASE_URL, or the OpenAI API when that is unset): a base
 * URL chosen per run is not trusted with it, so a typo or a hostile form value cannot leak the key.
 */
function openAITarget(chosenBaseURL: string | undefined, vars: EnvVars): { baseURL?: string; apiKey?: string } {
  const configuredBaseURL = vars.openaiBaseURL ?? OPENAI_API_BASE_URL;
  const baseURL = chosenBaseURL ?? configuredBaseURL;
  const sameServer = redactBaseURL(baseURL) === redactBaseURL(configuredBaseURL);
  const apiKey = sameServer ? vars.openaiKey : undefined;
  if (!apiKey && redactBaseURL(baseURL) === OPENAI_API_BASE_URL) {
    throw new Error(
      "OpenAI is not configured: set OPENAI_API_KEY (for the OpenAI API), or OPENAI_BASE_URL " +
        "(for a local OpenAI-compatible server such as vLLM, Ollama or llama.cpp)",
    );
  }
  // The environment's own URL keeps any credentials or query it carries; the chosen one is already redacted.
  return { baseURL: sameServer ? configuredBaseURL : baseURL, ...(apiKey ? { apiKey } : {}) };
}

/** A base URL safe to store and show: userinfo, query and fragment removed (and any trailing slash). */
export function redactBaseURL(url: string): string {
  const trimmed = url.trim();
  try {
    const parsed = new URL(trimmed);
    // "user:pw@host" parses as a URL with the scheme "user:"; only web URLs are trusted to the parser.
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not a web URL");
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    parsed.hash = "";
    return parsed.toString().replace(/\/+$/, "");
  } catch {
    // Not a URL we can parse: strip anything that could be a secret all the same.
    return trimmed
      .replace(/[?#][\s\S]*$/, "")
      .replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/@]*@/i, "$1")
      .replace(/\/+$/, "");
  }
}

interface EnvVars {
  openaiKey?: string;
  openaiBaseURL?: string;
  model: string;
  azureEndpoint?: string;
  azureKey?: string;
  azureDeployment?: string;
  azureApiVersion: string;
}

/** Blank values count as unset (a common result of `FOO=` in a .env file). */
function readVars(env: EnvSource): EnvVars {
  const get = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  return {
    openaiKey: get("OPENAI_API_KEY"),
    openaiBaseURL: get("OPENAI_BASE_URL"),
    model: get("SKILLBOARD_MODEL") ?? DEFAULT_OPENAI_MODEL,
    azureEndpoint: get("AZURE_OPENAI_ENDPOINT"),
    azureKey: get("AZURE_OPENAI_API_KEY"),
    azureDeployment: get("AZURE_OPENAI_DEPLOYMENT"),
    azureApiVersion: get("AZURE_OPENAI_API_VERSION") ?? DEFAULT_AZURE_API_VERSION,
  };
}
