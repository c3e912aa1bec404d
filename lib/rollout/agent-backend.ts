import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import {
  AGENT_PROMPT, AgentConfigError, agentEnvironment, agentProgram, claudeCodePrompt, findAgent, loadAgentConfig, missingProgramMessage, missingProviderKey, promptFilePath,
  type AgentDefinition,
} from "../agent";
import type { EnvSource } from "../model/environment";
import type { AgentItemBackend } from "./process-agent-item";
import type { RunConfig } from "../runs/run-config";

/** The agent a run names, from the server's config file as it is now (throws AgentConfigError if it is not there). */
export function resolveRunAgent(selection: RunConfig["model"], env: EnvSource = process.env): AgentDefinition {
  if (selection.backend !== "agent" || !selection.agent) throw new Error(`run backend is "${selection.backend}", not an agent`);
  return findAgent(loadAgentConfig({ env }), selection.agent);
}

/**
 * Refuses, before a run is created, an agent that cannot work here: its program is not installed, or its
 * provider names a key variable the server does not have. (Throws AgentConfigError with a message for the user.)
 */
export function checkAgentRunnable(agent: AgentDefinition, env: EnvSource = process.env): void {
  const problem = missingProgramMessage(agent.name, agentProgram(agent), env.PATH) ?? missingProviderKey(agent, env);
  if (problem) throw new AgentConfigError(problem);
}

/** The text an agent is asked, the same for every item: the seed's exec prompt, or the seed's Claude Code wording of it. */
export function agentPrompt(agent: Pick<AgentDefinition, "promptStyle">): string {
  return agent.promptStyle === "claude-code" ? claudeCodePrompt(AGENT_PROMPT) : AGENT_PROMPT;
}

/** The model column of an agent run: the agent's name, and the model it is given if any ("codex/gpt-5.5"). */
export function agentRunModelLabel(agent: AgentDefinition, model: string | undefined): string {
  const chosen = model ?? agent.defaultModel;
  return chosen ? `${agent.name}/${chosen}` : agent.name;
}

/** Everything the items of an agent run share: the agent, its environment, the SKILL.md and the prompt file. */
export async function prepareAgentBackend(input: {
  runId: number;
  config: RunConfig;
  skillMd: string;
  dataDir: string;
  env?: EnvSource;
}): Promise<AgentItemBackend> {
  const agent = resolveRunAgent(input.config.model, input.env);
  const promptFile = promptFilePath(input.dataDir, input.runId);
  await mkdir(dirname(promptFile), { recursive: true });
  // Written whole then renamed: an agent of a resumed run never sees a half-written prompt.
  const prompt = agentPrompt(agent);
  await writeFile(`${promptFile}.tmp`, prompt);
  await rename(`${promptFile}.tmp`, promptFile);
  const model = input.config.model.model ?? agent.defaultModel;
  return {
    agent,
    ...(model ? { model } : {}),
    skillMd: input.skillMd,
    runId: input.runId,
    dataDir: input.dataDir,
    promptFile,
    prompt,
    env: agentEnvironment(agent, input.env),
    serverEnv: input.env ?? process.env,
    keepWorkspaces: input.config.model.keepWorkspaces ?? false,
  };
}
