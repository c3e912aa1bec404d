import { emFailReason, evaluate, evaluationRecord } from "../eval";
import { FatalModelError, ModelCallError } from "../model";
import type { CallObserver, CallStats, ChatMessage, ChatModel } from "../model/types";
import { buildRefinementPrompt, buildUserPrompt, isPlainUserPrompt } from "../prompts";
import { processAgentItem, type AgentItemBackend, type ItemTrace } from "./process-agent-item";
import type { RunSettings } from "../runs/run-config";
import { trialOf, type ConversationEntry, type ItemResult, type RolloutItem } from "../runs/types";

export interface ProcessItemContext {
  /** The chat path's model; not needed when `agent` is given. */
  model?: ChatModel;
  systemPrompt: string;
  settings: Pick<RunSettings, "maxTurns" | "maxCompletionTokens" | "temperature" | "diagnosticMode" | "diagnosticInstruction" | "execTimeoutS">;
  signal: AbortSignal;
  observer?: CallObserver;
  /** Agent runs: the seed's exec backend (an agent command in a workspace) instead of a chat model. */
  agent?: AgentItemBackend;
  trace?: ItemTrace;
}

/**
 * The seed's process_one on the chat path: build the prompts, call the model for up to max_turns
 * turns, evaluate the final response. A model failure becomes the seed's "error: …" row.
 * Aborts (cancel, task timeout) and errors that retrying cannot fix are thrown for the caller to handle.
 *
 * Deliberate difference from the seed: a refinement turn sends the whole conversation so far
 * (system, user with the context, previous answers, refinement requests); the seed sends only the
 * refinement text, so the model re-answers without the context.
 */
export async function processItem(item: RolloutItem, context: ProcessItemContext): Promise<ItemResult> {
  // As the seed branches on is_target_exec_backend().
  if (context.agent) return processAgentItem(item, { backend: context.agent, settings: context.settings, signal: context.signal, trace: context.trace });
  const { model, systemPrompt, settings, signal } = context;
  if (!model) throw new Error("processItem: no chat model given");
  const startedAt = new Date();
  const promptInput = {
    question: item.question,
    context: item.context,
    diagnosticMode: settings.diagnosticMode,
    diagnosticInstruction: settings.diagnosticInstruction,
    diagnosticTraceContext: item.diagnosticTraceContext ?? "",
  };
  const userPrompt = buildUserPrompt(promptInput);
  const conversation: ConversationEntry[] = [];
  const usage = { promptTokens: 0, completionTokens: 0 };
  const stats: CallStats = { attempts: 0, retries: 0, rateLimited: 0 };
  let cachedFromRunId: number | null = null;
  const messages: ChatMessage[] = [
    { role: "system", content: systemPrompt },
    { role: "user", content: userPrompt },
  ];
  const base = {
    itemId: item.id,
    trial: trialOf(item),
    datasetItemId: item.datasetItemId,
    question: item.question,
    goldAnswers: item.answers,
    phase: null,
    startedAt,
    userPrompt,
    userPromptFromItem: isPlainUserPrompt(promptInput),
    conversation,
  } as const;

  let response = "";
  try {
    for (let turn = 0; turn < settings.maxTurns; turn++) {
      if (turn > 0) {
        messages.push({ role: "assistant", content: response }, { role: "user", content: buildRefinementPrompt(response) });
      }
      const reply = await model.complete(
        { messages: [...messages], maxCompletionTokens: settings.maxCompletionTokens, temperature: settings.temperature, signal },
        context.observer,
      );
      addStats(stats, reply);
      cachedFromRunId ??= reply.cachedFromRunId ?? null;
      usage.promptTokens += reply.promptTokens;
      usage.completionTokens += reply.completionTokens;
      response = reply.text;
      conversation.push({ type: "message", turn: turn + 1, content: reply.text });
      // The seed's stop rule: after the first turn, stop as soon as a reply carries an answer tag.
      if (turn > 0 && reply.text.toLowerCase().includes("<answer>")) break;
    }
  } catch (error) {
    // A prompt too long for the model is this item's problem, not the run's: record it and go on.
    if (signal.aborted || (error instanceof FatalModelError && error.code !== "context_length_exceeded")) throw error;
    if (error instanceof ModelCallError || error instanceof FatalModelError) addStats(stats, error.stats);
    const finishedAt = new Date();
    return {
      ...base,
      em: 0, f1: 0, subEm: 0, hard: 0, soft: 0,
      predictedAnswer: "",
      response: "",
      failReason: `error: ${error instanceof Error ? error.message : String(error)}`,
      agentOk: false,
      nTurns: 0,
      status: "error",
      latencyMs: finishedAt.getTime() - startedAt.getTime(),
      ...usage,
      ...stats,
      finishedAt,
    };
  }

  const scores = evaluate(response, item.answers);
  conversation.push({ role: "system", content: evaluationRecord(item.question, item.answers, scores) });
  const finishedAt = new Date();
  return {
    ...base,
    em: scores.em,
    f1: scores.f1,
    subEm: scores.subEm,
    hard: Math.trunc(scores.em),
    soft: scores.f1,
    predictedAnswer: scores.predictedAnswer,
    response,
    failReason: scores.em < 1 ? emFailReason(scores.predictedAnswer, item.answers) : "",
    agentOk: true,
    nTurns: conversation.length - 1,
    status: scores.em >= 1 ? "correct" : "wrong",
    latencyMs: finishedAt.getTime() - startedAt.getTime(),
    ...usage,
    ...stats,
    finishedAt,
    cachedFromRunId,
  };
}

function addStats(into: CallStats, add: CallStats): void {
  into.attempts += add.attempts;
  into.retries += add.retries;
  into.rateLimited += add.rateLimited;
}
