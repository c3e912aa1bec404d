import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { AgentDefinition } from "./config";
import { workspaceDirName, runDirectory } from "./workspace";

/**
 * The configuration folder an agent gets for one item instead of the server user's own (~/.codex, ~/.claude,
 * whose settings, instructions, skills, plugins and MCP servers would leak into every item): CODEX_HOME with a
 * generated config.toml declaring the run's model server, or CLAUDE_CONFIG_DIR plus a TMPDIR for what Claude
 * Code leaves behind. It lies outside the workspace (which may be kept) and is removed after the item. It never
 * holds a key the configuration names: keys reach the agent through its environment only.
 */
export function itemAgentHomeDirectory(dataDir: string, runId: number, itemId: string): string {
  return join(runDirectory(dataDir, runId), "agent-homes", workspaceDirName(itemId));
}

/** The provider name Codex knows the run's model server by. */
export const CODEX_PROVIDER_NAME = "skillboard";

type Env = Readonly<Record<string, string | undefined>>;

/** The key variables the agent's provider names, checked when the run starts so a missing key is said at once. */
export function missingProviderKey(agent: Pick<AgentDefinition, "name" | "provider">, serverEnv: Env): string | undefined {
  const variable = agent.provider?.apiKeyEnv ?? agent.provider?.authTokenEnv;
  if (!variable || serverEnv[variable]) return undefined;
  return `agent "${agent.name}": provider.${agent.provider?.apiKeyEnv ? "apiKeyEnv" : "authTokenEnv"} names ${variable}, which is not set in the server's environment`;
}

/** Makes the folder afresh and returns the variables that point the agent at it and at the run's model server. */
export async function prepareAgentHome(agent: AgentDefinition, dir: string, serverEnv: Env = process.env): Promise<Record<string, string>> {
  if (agent.home === "none") return {};
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return agent.home === "codex" ? prepareCodexHome(agent, dir, serverEnv) : prepareClaudeHome(agent, dir, serverEnv);
}

export async function removeAgentHome(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** TOML basic strings accept JSON's escapes. */
const toml = (value: string) => JSON.stringify(value);

/** config.toml for one item: the run's provider (Responses API, bounded retries), or none (Codex's own, with the user's sign-in). */
export function codexConfigToml(agent: Pick<AgentDefinition, "provider" | "maxRetries">): string {
  const lines = ["# Written by Skillboard for one item and removed after it. No key is stored here: env_key names a variable."];
  const { provider } = agent;
  if (provider) {
    lines.push(
      `model_provider = ${toml(CODEX_PROVIDER_NAME)}`,
      "",
      `[model_providers.${CODEX_PROVIDER_NAME}]`,
      `name = ${toml(CODEX_PROVIDER_NAME)}`,
      `base_url = ${toml(provider.baseUrl.replace(/\/+$/, ""))}`,
      `wire_api = "responses"`,
      ...(provider.apiKeyEnv ? [`env_key = ${toml(provider.apiKeyEnv)}`] : []),
      `request_max_retries = ${agent.maxRetries}`,
      `stream_max_retries = ${agent.maxRetries}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

async function prepareCodexHome(agent: AgentDefinition, dir: string, serverEnv: Env): Promise<Record<string, string>> {
  await writeFile(join(dir, "config.toml"), codexConfigToml(agent), { mode: 0o600 });
  if (!agent.provider) await copySignIn(join(serverEnv.CODEX_HOME || join(serverEnv.HOME || homedir(), ".codex"), "auth.json"), join(dir, "auth.json"));
  const env: Record<string, string> = { CODEX_HOME: dir };
  // config.toml's env_key names the variable; its value reaches the agent only through its environment.
  const keyName = agent.provider?.apiKeyEnv;
  const key = keyName ? serverEnv[keyName] : undefined;
  if (keyName && key) env[keyName] = key;
  return env;
}

async function prepareClaudeHome(agent: AgentDefinition, dir: string, serverEnv: Env): Promise<Record<string, string>> {
  const config = join(dir, "config");
  const tmp = join(dir, "tmp");
  await mkdir(config, { mode: 0o700 });
  await mkdir(tmp, { mode: 0o700 });
  const env: Record<string, string> = {
    CLAUDE_CONFIG_DIR: config,
    TMPDIR: tmp,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_MAX_RETRIES: String(agent.maxRetries),
  };
  if (agent.isSandbox) env.IS_SANDBOX = "1";
  const { provider } = agent;
  if (provider) {
    // Claude Code appends /v1/messages itself: a base URL ending in /v1 would reach /v1/v1/messages.
    env.ANTHROPIC_BASE_URL = provider.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
    const apiKey = provider.apiKeyEnv ? serverEnv[provider.apiKeyEnv] : undefined;
    const token = provider.authTokenEnv ? serverEnv[provider.authTokenEnv] : undefined;
    if (apiKey) env.ANTHROPIC_API_KEY = apiKey;
    if (token) env.ANTHROPIC_AUTH_TOKEN = token;
  } else {
    await copySignIn(join(serverEnv.CLAUDE_CONFIG_DIR || join(serverEnv.HOME || homedir(), ".claude"), ".credentials.json"), join(config, ".credentials.json"));
  }
  return env;
}

/** Without a provider the agent uses the server user's sign-in: only that file is copied, nothing else of their settings. */
async function copySignIn(from: string, to: string): Promise<void> {
  await copyFile(from, to).catch(() => undefined);
}
