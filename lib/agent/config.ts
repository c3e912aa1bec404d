import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { z } from "zod";
import { EVENT_FORMATS, type EventFormat } from "./agent-events";
import { AGENT_PRESET_NAMES, AGENT_PRESETS, type AgentHomeKind, type AgentPresetName, type PromptStyle } from "./presets";
import { isSafeRelativePath } from "./safe-path";

/**
 * Agents are declared by whoever runs the server, in a JSON file (SKILLBOARD_CONFIG, or skillboard.config.json
 * in the project folder): a browser or a CLI user only ever names one. Read on every use, so an edit takes
 * effect without a restart; any error names the file and the field.
 */

export const CONFIG_FILE_NAME = "skillboard.config.json";
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** What a command argument may contain; `{modelArgs}` must be a whole argument. */
export const PLACEHOLDERS = ["workspace", "prompt", "promptFile", "taskFile", "skillFile", "model", "outputFile", "configDir", "modelArgs"] as const;
export const DEFAULT_OUTPUT_CAP_BYTES = 1024 * 1024;

const relativePath = (what: string) =>
  z.string().refine(isSafeRelativePath, `${what} must be a relative path inside the workspace (no "..", no leading "/")`);
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name");

const FinalMessageSchema = z.discriminatedUnion("from", [
  z.object({ from: z.literal("stdout-last-line") }).strict(),
  z.object({ from: z.literal("stdout") }).strict(),
  z.object({ from: z.literal("file"), path: relativePath("path") }).strict(),
  z.object({
    from: z.literal("jsonl"),
    /** Dotted paths and the values they must hold; the last matching line wins. */
    match: z.record(z.string().min(1), z.union([z.string(), z.number(), z.boolean()])).default({}),
    field: z.string().min(1),
  }).strict(),
], { error: 'finalMessage.from must be "stdout-last-line", "stdout", "file" or "jsonl"' });
export type FinalMessageSpec = z.infer<typeof FinalMessageSchema>;

/** The model server an agent talks to, from the server's config only (a browser never names one). */
const ProviderSchema = z.object({
  /** Codex: the OpenAI-compatible base URL (…/v1). Claude Code: the Anthropic-compatible base URL (a trailing /v1 is dropped). */
  baseUrl: z.url({ protocol: /^https?$/, error: "baseUrl must be an http:// or https:// URL" }),
  /** The server environment variable holding the key; only the agent process gets it (x-api-key / Bearer). */
  apiKeyEnv: envName.optional(),
  /** Claude Code: a variable whose value is sent as a Bearer token (ANTHROPIC_AUTH_TOKEN) instead. */
  authTokenEnv: envName.optional(),
}).strict();
export type AgentProvider = z.infer<typeof ProviderSchema>;

const AgentEntrySchema = z.object({
  preset: z.enum(AGENT_PRESET_NAMES as [AgentPresetName, ...AgentPresetName[]], { error: `preset must be one of ${AGENT_PRESET_NAMES.join(", ")}` }).optional(),
  description: z.string().max(500).optional(),
  command: z.array(z.string().max(100_000)).min(1, "command needs at least the program to run").optional(),
  modelArgs: z.array(z.string()).optional(),
  defaultModel: z.string().min(1).max(200).optional(),
  stdin: z.enum(["none", "prompt"]).optional(),
  env: z.record(envName, z.string()).optional(),
  passEnv: z.array(envName).optional(),
  timeoutS: z.number().positive().max(86_400).optional(),
  maxConcurrency: z.number().int().min(1).max(512).optional(),
  finalMessage: FinalMessageSchema.optional(),
  skillCopies: z.array(relativePath("a skill copy")).optional(),
  outputCapBytes: z.number().int().min(1024).max(64 * 1024 * 1024).optional(),
  provider: ProviderSchema.optional(),
  maxRetries: z.number().int().min(0).max(20).optional(),
  isSandbox: z.boolean().optional(),
  events: z.enum(EVENT_FORMATS, { error: `events must be one of ${EVENT_FORMATS.join(", ")}` }).optional(),
}).strict();

const ConfigFileSchema = z.object({
  $schema: z.string().optional(),
  agents: z.record(z.string().regex(AGENT_NAME_PATTERN, "agent names are letters, digits, '.', '_' and '-' (at most 64)"), AgentEntrySchema).default({}),
  /** Model prices (lib/model/prices.ts reads and checks them). */
  prices: z.unknown().optional(),
}).strict();

/** An agent with its preset applied: everything needed to run it. Never sent to a browser (env may hold secrets). */
export interface AgentSettings {
  description: string;
  /** Program and arguments, with placeholders. */
  command: string[];
  /** Put where the command has "{modelArgs}", only when the run names a model. */
  modelArgs: string[];
  defaultModel?: string;
  stdin: "none" | "prompt";
  /** Set for the agent, on top of the few variables every process needs (PATH, HOME, locale, TMPDIR). */
  env: Record<string, string>;
  /** Names of server variables passed through as they are (API keys). */
  passEnv: string[];
  /** Longest one invocation may take; the run's exec timeout applies if shorter. */
  timeoutS: number;
  maxConcurrency?: number;
  finalMessage: FinalMessageSpec;
  /** Extra folders (relative to the workspace) that get a copy of SKILL.md, for agents that look elsewhere. */
  skillCopies: string[];
  outputCapBytes?: number;
  /** The model server and key variable (Codex: a provider in the per-run config.toml; Claude Code: ANTHROPIC_* variables). */
  provider?: AgentProvider;
  /** How often the agent itself retries a failed model request (bounded so a dead server fails the item in seconds). */
  maxRetries: number;
  /** Claude Code: IS_SANDBOX=1, which bypassPermissions needs when the server runs as root. Only when the operator says so. */
  isSandbox: boolean;
  /** How to read the agent's stdout as events (the item view's trace, its tokens and its own error message). */
  events: EventFormat;
  /** The per-item configuration folder the agent gets instead of the server user's (CODEX_HOME, CLAUDE_CONFIG_DIR); set by the preset. */
  home: AgentHomeKind;
  /** The prompt it is given: the seed's exec prompt, or the seed's Claude Code wording of it; set by the preset. */
  promptStyle: PromptStyle;
}

export interface AgentDefinition extends AgentSettings {
  name: string;
  preset: AgentPresetName;
  /** Folder of the config file, for {configDir} (scripts kept beside the config). */
  configDir: string;
}

export interface AgentConfig {
  /** The file read, or null when there is none (no agents). */
  path: string | null;
  agents: AgentDefinition[];
}

export class AgentConfigError extends Error {
  override name = "AgentConfigError";
}

/** Which file configures agents: SKILLBOARD_CONFIG (must exist) or skillboard.config.json in the working directory. */
export function agentConfigPath(env: Readonly<Record<string, string | undefined>> = process.env, cwd: string = process.cwd()): { path: string; explicit: boolean } {
  const chosen = env.SKILLBOARD_CONFIG?.trim();
  return chosen ? { path: resolve(cwd, chosen), explicit: true } : { path: resolve(/*turbopackIgnore: true*/ cwd, CONFIG_FILE_NAME), explicit: false };
}

/** Reads and validates the agents file. No file (and no SKILLBOARD_CONFIG) means no agents; any error throws AgentConfigError. */
export function loadAgentConfig(options: { env?: Readonly<Record<string, string | undefined>>; cwd?: string } = {}): AgentConfig {
  const { path, explicit } = agentConfigPath(options.env, options.cwd);
  const shown = displayPath(path, options.cwd);
  if (!existsSync(path)) {
    if (explicit) throw new AgentConfigError(`${shown}: no such file (SKILLBOARD_CONFIG names it)`);
    return { path: null, agents: [] };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new AgentConfigError(`${shown}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { path, agents: parseAgentConfig(raw, shown, dirname(path)) };
}

/** Validates a parsed config; `source` names the file in messages. */
export function parseAgentConfig(raw: unknown, source: string, configDir: string): AgentDefinition[] {
  const parsed = ConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join(".");
    throw new AgentConfigError(`${source}: ${field ? `${field}: ` : ""}${issue.message}`);
  }
  return Object.entries(parsed.data.agents).map(([name, entry]) => {
    const preset = entry.preset ?? "generic";
    const defined = Object.fromEntries(Object.entries(entry).filter(([key, value]) => key !== "preset" && value !== undefined));
    const settings = { ...structuredClone(AGENT_PRESETS[preset]), ...defined } as AgentSettings;
    const at = `${source}: agents.${name}`;
    if (settings.command.length === 0) throw new AgentConfigError(`${at}.command: required (the program and its arguments)`);
    checkPlaceholders(settings, at);
    checkProvider(settings, at);
    return { name, preset, configDir, ...settings };
  });
}

function checkProvider(settings: AgentSettings, at: string): void {
  const { provider, home } = settings;
  if (!provider) return;
  if (home === "none") throw new AgentConfigError(`${at}.provider: only the codex and claude-code presets (and their variants) take a provider`);
  if (provider.authTokenEnv && home !== "claude-code") throw new AgentConfigError(`${at}.provider.authTokenEnv: only Claude Code takes a Bearer token; Codex sends apiKeyEnv's value as one`);
  if (provider.authTokenEnv && provider.apiKeyEnv) throw new AgentConfigError(`${at}.provider: give apiKeyEnv or authTokenEnv, not both`);
}

function checkPlaceholders(settings: AgentSettings, at: string): void {
  const known = new Set<string>(PLACEHOLDERS);
  const check = (args: string[], field: string) =>
    args.forEach((arg, index) => {
      for (const [, name] of arg.matchAll(/\{([A-Za-z]+)\}/g)) {
        if (!known.has(name!)) throw new AgentConfigError(`${at}.${field}[${index}]: unknown placeholder {${name}} (known: ${PLACEHOLDERS.map((p) => `{${p}}`).join(", ")})`);
        if (name === "modelArgs" && (arg !== "{modelArgs}" || field !== "command")) throw new AgentConfigError(`${at}.${field}[${index}]: {modelArgs} must be a whole argument of command`);
        if (name === "outputFile" && settings.finalMessage.from !== "file") throw new AgentConfigError(`${at}.${field}[${index}]: {outputFile} needs finalMessage {"from": "file", "path": …}`);
      }
    });
  check(settings.command, "command");
  check(settings.modelArgs, "modelArgs");
}

/** The named agent, or an error saying which agents exist. */
export function findAgent(config: AgentConfig, name: string): AgentDefinition {
  const agent = config.agents.find((candidate) => candidate.name === name);
  if (agent) return agent;
  const known = config.agents.map((candidate) => candidate.name);
  const where = config.path ? displayPath(config.path) : `${CONFIG_FILE_NAME} (not found; set SKILLBOARD_CONFIG or create it)`;
  throw new AgentConfigError(`agent "${name}" is not configured in ${where}${known.length ? `; configured: ${known.join(", ")}` : ""}`);
}

/** What a page may show about an agent: never its command or environment. */
export interface AgentSummary {
  name: string;
  preset: AgentPresetName;
  description: string;
  defaultModel?: string;
  /** Whether its program is installed on this server, and the version it reports (filled in by the page, agent-versions.ts). */
  program?: { installed: boolean; version: string | null };
}

export function summarizeAgent(agent: AgentDefinition): AgentSummary {
  return { name: agent.name, preset: agent.preset, description: agent.description, ...(agent.defaultModel ? { defaultModel: agent.defaultModel } : {}) };
}

function displayPath(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
