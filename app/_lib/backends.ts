import { BASELINE_MODEL_NAME, defaultBackend, readModelEnvironment, type EnvSource } from "@/lib/model";
import { DEFAULT_OPENAI_MODEL } from "@/lib/model/environment";
import { AgentConfigError, loadAgentConfig, summarizeAgent, type AgentSummary } from "@/lib/agent/config";
import { agentBinaryInfo, agentProgram } from "@/lib/agent/agent-versions";

export type BackendKind = "openai" | "azure" | "baseline" | "agent";

/** One backend as the New run form offers it: safe to render (redacted URLs, never a key). */
export interface BackendOption {
  backend: BackendKind;
  label: string;
  configured: boolean;
  /** Where calls go, e.g. "http://127.0.0.1:8000/v1, no API key". */
  detail: string;
  /** Model (or Azure deployment) to prefill. */
  defaultModel: string;
  /** For an unconfigured backend: the environment variables that would configure it. */
  hint: string;
  /** The redacted OPENAI_BASE_URL, stored with the run so its page says which server answered. */
  baseURL?: string;
  /** The agent backend: the agents the server's config file declares (names and descriptions only). */
  agents?: AgentSummary[];
}

/** What the server's environment configures, read on every request so a restart with new variables shows at once. */
export function describeBackends(env: EnvSource = process.env): { options: BackendOption[]; defaultBackend: BackendKind } {
  const configured = readModelEnvironment(env);
  const openai = configured.openai;
  const azure = configured.azure;
  const options: BackendOption[] = [
    {
      backend: "openai",
      label: "OpenAI-compatible server",
      configured: Boolean(openai),
      detail: openai
        ? `${openai.baseURL ?? "OpenAI API (api.openai.com)"}, ${openai.apiKeyPresent ? "API key set" : "no API key"}`
        : "not configured",
      defaultModel: openai?.model ?? DEFAULT_OPENAI_MODEL,
      hint: "Set OPENAI_BASE_URL (a local server such as vLLM, Ollama or llama.cpp) or OPENAI_API_KEY, and optionally SKILLBOARD_MODEL, then restart the server.",
      ...(openai?.baseURL ? { baseURL: openai.baseURL } : {}),
    },
    {
      backend: "azure",
      label: "Azure OpenAI",
      configured: Boolean(azure?.apiKeyPresent),
      detail: azure ? `deployment ${azure.deployment} at ${azure.endpoint}${azure.apiKeyPresent ? "" : " (no API key)"}` : "not configured",
      defaultModel: azure?.deployment ?? "",
      hint: "Set AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY and AZURE_OPENAI_DEPLOYMENT, then restart the server.",
    },
    {
      backend: "baseline",
      label: "Offline baseline (no LLM)",
      configured: true,
      detail: "a deterministic extractive reader that picks a span of the context; not a language model",
      defaultModel: BASELINE_MODEL_NAME,
      hint: "",
    },
    describeAgentBackend(env),
  ];
  return { options, defaultBackend: defaultBackend(env) };
}

/** The agent backend is available when the config file declares an agent; its command and environment stay on the server. */
function describeAgentBackend(env: EnvSource): BackendOption {
  const base = { backend: "agent" as const, label: "Agent (command line)", defaultModel: "" };
  try {
    const config = loadAgentConfig({ env });
    const agents = config.agents.map(summarizeAgent);
    return {
      ...base,
      configured: agents.length > 0,
      detail: `runs each item through a coding agent in a workspace holding the skill as SKILL.md: ${agents.map((agent) => agent.name).join(", ")}`,
      hint: "Declare agents (Codex CLI, Claude Code or any command) in skillboard.config.json, or the file SKILLBOARD_CONFIG names; see the README.",
      agents,
    };
  } catch (error) {
    if (!(error instanceof AgentConfigError)) throw error;
    return { ...base, configured: false, detail: "not configured", hint: `The agents file has a mistake: ${error.message}`, agents: [] };
  }
}

/**
 * The options with each agent's program status: installed or not, and the version it reports (`codex --version`,
 * cached). Only that reaches the page, never the program's path or command.
 */
export async function withAgentPrograms(options: BackendOption[], env: EnvSource = process.env): Promise<BackendOption[]> {
  let definitions;
  try {
    definitions = loadAgentConfig({ env }).agents;
  } catch (error) {
    if (error instanceof AgentConfigError) return options;
    throw error;
  }
  const status = new Map(await Promise.all(definitions.map(async (agent) => {
    const info = await agentBinaryInfo(agentProgram(agent), env.PATH);
    return [agent.name, { installed: info.path !== null, version: info.version }] as const;
  })));
  return options.map((option) => (option.agents ? { ...option, agents: option.agents.map((agent) => ({ ...agent, ...(status.has(agent.name) ? { program: status.get(agent.name)! } : {}) })) } : option));
}
