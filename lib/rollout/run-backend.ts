import { dataDirectory, type Db, type RunRecord } from "../db";
import type { ChatModel } from "../model/types";
import { prepareAgentBackend } from "./agent-backend";
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
