import { dataDirectory, type Db, type RunRecord } from "../db";
import type { ChatModel } from "../model/types";
import type { EnvSource } from "../model/environment";
import type { RunConfig } from "../runs/run-config";
import { checkAgentRunnable, prepareAgentBackend, resolveRunAgent } from "./agent-backend";
import { cachedChatModel } from "./cached-chat-model";
import { chatModelForRun, requestGateForRun } from "./run-chat-model";

/**
 * What executes a run's items in this process: the chat model (with the response cache when the run uses it) or the
 * agent backend. Shared by the single-process executor (execute-run.ts) and a queue worker's part of a run.
 */
export async function prepareRunBackend(db: Db, run: RunRecord, options: { model?: ChatModel; dataDir?: string }) {
  const settings = run.config.settings;
  const backend = run.config.model.backend;
  const agent =
    backend === "agent"
      ? await prepareAgentBackend({ runId: run.id, config: run.config, skillMd: run.systemPrompt, dataDir: options.dataDir ?? dataDirectory() })
      : undefined;
  const baseModel = options.model ?? (backend === "agent" ? undefined : chatModelForRun(run.config));
  // The same shared gate the model passes each attempt through: its limit is shown as a live gauge.
  const gate = backend === "agent" || options.model ? undefined : requestGateForRun(run.config);
  // Trials after the first are there to sample the model again: they never take a reply from the cache (baseModel).
  const model = baseModel && settings.cache ? cachedChatModel(db, baseModel, { runId: run.id, baseURL: run.config.model.baseURL }) : baseModel;
  return { agent, baseModel, gate, model };
}

/** An agent may cap how many of its processes run at once. */
export function agentConcurrency(agent: Awaited<ReturnType<typeof prepareRunBackend>>["agent"], concurrency: number): number {
  return agent?.agent.maxConcurrency ? Math.min(concurrency, agent.agent.maxConcurrency) : concurrency;
}

/**
 * How many of the run's items one worker process may have in flight, known from the run's config alone (before it
 * joins the run, so it asks for no slot it would not use): the run's concurrency, capped by the agent's maxConcurrency.
 *
 * The agent's cap is per process, not per run across machines: each machine reads its own agents file and has its own
 * sandboxes and CPUs, so two workers on two machines may each run maxConcurrency of the run's agents, while the run's
 * concurrency stays the bound over all of them (as one process executes the whole run on SQLite, the cap is the run's
 * there). Throws AgentConfigError when the run's agent cannot run here: not in this machine's agents file, its program
 * not installed, or its provider's key variable missing; this worker then leaves the run to the others.
 */
export function processConcurrency(config: RunConfig, env: EnvSource = process.env): number {
  const { concurrency } = config.settings;
  if (config.model.backend !== "agent") return concurrency;
  const agent = resolveRunAgent(config.model, env);
  checkAgentRunnable(agent, env);
  return agent.maxConcurrency ? Math.min(concurrency, agent.maxConcurrency) : concurrency;
}
