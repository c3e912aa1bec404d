import { join } from "node:path";
import type { AgentDefinition } from "./config";
import { SKILL_FILE, TASK_FILE } from "./skill-md";

export interface CommandValues {
  workspace: string;
  prompt: string;
  promptFile: string;
  model?: string;
}

/**
 * The argument list to run: placeholders replaced, "{modelArgs}" replaced by the agent's model arguments
 * when the run names a model and dropped otherwise. No shell is involved, so nothing in a value is interpreted.
 */
export function expandCommand(agent: Pick<AgentDefinition, "command" | "modelArgs" | "finalMessage" | "configDir">, values: CommandValues): string[] {
  const model = values.model ?? "";
  const table: Record<string, string> = {
    workspace: values.workspace,
    prompt: values.prompt,
    promptFile: values.promptFile,
    taskFile: join(values.workspace, TASK_FILE),
    skillFile: join(values.workspace, SKILL_FILE),
    model,
    outputFile: agent.finalMessage.from === "file" ? join(values.workspace, agent.finalMessage.path) : "",
    configDir: agent.configDir,
  };
  const expand = (arg: string) => arg.replace(/\{([A-Za-z]+)\}/g, (whole, name: string) => table[name] ?? whole);
  const argv: string[] = [];
  for (const arg of agent.command) {
    if (arg === "{modelArgs}") {
      if (model) argv.push(...agent.modelArgs.map(expand));
    } else {
      argv.push(expand(arg));
    }
  }
  return argv;
}

/** What every process needs to start and find its tools; nothing else of the server's environment is passed. */
const BASE_VARIABLES = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TERM"];

/**
 * The agent's environment: the base variables and the agent's `passEnv` names from the server's environment,
 * then its own `env` values. The dashboard's token, database location and other keys are never passed.
 */
export function agentEnvironment(agent: Pick<AgentDefinition, "env" | "passEnv">, serverEnv: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_VARIABLES, ...agent.passEnv]) {
    const value = serverEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...agent.env };
}
