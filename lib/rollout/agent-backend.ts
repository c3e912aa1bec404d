import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { AGENT_PROMPT, agentEnvironment, findAgent, loadAgentConfig, promptFilePath, type AgentDefinition } from "../agent";
import type { EnvSource } from "../model/environment";
import type { AgentItemBackend } from "./process-agent-item";
import type { RunConfig } from "../runs/run-config";

/** The agent a run names, from the server's config file as it is now (throws AgentConfigError if it is not there). */
export function resolveRunAgent(selection: RunConfig["model"], env: EnvSource = process.env): AgentDefinition {
  if (selection.backend !== "agent" || !selection.agent) throw new Error(`run backend is "${selection.backend}", not an agent`);
  return findAgent(loadAgentConfig({ env }), selection.agent);
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
  await writeFile(`${promptFile}.tmp`, AGENT_PROMPT);
  await rename(`${promptFile}.tmp`, promptFile);
  const model = input.config.model.model ?? agent.defaultModel;
  return {
    agent,
    ...(model ? { model } : {}),
    skillMd: input.skillMd,
    runId: input.runId,
    dataDir: input.dataDir,
    promptFile,
    env: agentEnvironment(agent, input.env),
    keepWorkspaces: input.config.model.keepWorkspaces ?? false,
  };
}
