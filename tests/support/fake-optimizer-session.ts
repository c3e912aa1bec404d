/**
 * A fake server playing both models (optimizerAnswer) and the real OpenAI client against it, with the two calls
 * the optimiser's tests make: a rollout of items under a skill (lib/rollout's processItem, so rows and
 * conversations are what a run stores) and one optimizer request built by lib/optimize/prompts.
 */
import type { DatasetItem } from "@/lib/datasets/types";
import type { OptimizerRequest } from "@/lib/optimize/prompts/request";
import { buildSystemPrompt } from "@/lib/prompts";
import { processItem } from "@/lib/rollout";
import { RunSettingsSchema, type ItemResult } from "@/lib/runs";
import { startFakeOpenAIServer, type FakeChatRequest, type FakeOpenAIServer } from "./fake-openai-server";
import { optimizerAnswer, type FakeOptimizerOptions } from "./fake-optimizer";
import { fastModel } from "./rollout-fixtures";

export interface FakeOptimizerSession {
  server: FakeOpenAIServer;
  /** Changes the scripted optimizer's options from the next request on. */
  setOptions(options: FakeOptimizerOptions): void;
  /** Every item rolled out under `skill`, in item order. */
  rollout(items: readonly DatasetItem[], skill: string): Promise<ItemResult[]>;
  /** The optimizer's reply text to a request, over HTTP. */
  ask(request: OptimizerRequest): Promise<string>;
  close(): Promise<void>;
}

export async function startFakeOptimizerSession(initial: FakeOptimizerOptions = {}): Promise<FakeOptimizerSession> {
  let options = initial;
  const server = await startFakeOpenAIServer({ answer: (req) => optimizerAnswer(req, options) });
  const model = fastModel(server.baseURL, { maxRetries: 0 });
  const settings = RunSettingsSchema.parse({});
  return {
    server,
    setOptions(next) {
      options = next;
    },
    rollout: (items, skill) =>
      Promise.all(items.map((item, i) => processItem({ ...item, datasetItemId: i + 1 }, { model, systemPrompt: buildSystemPrompt(skill), settings, signal: new AbortController().signal }))),
    ask: async (request) =>
      (await model.complete({ messages: [...request.messages], maxCompletionTokens: request.maxCompletionTokens })).text,
    close: () => server.close(),
  };
}

/** An optimizer request as the fake server receives it (what optimizerRoleOf and isMalformedFor read). */
export function asFakeRequest(request: OptimizerRequest): FakeChatRequest {
  return { model: "test-model", messages: request.messages.map((m) => ({ role: m.role, content: m.content })), body: {} };
}

/** Share of correct rows (hard = 1). */
export function accuracy(rows: readonly ItemResult[]): number {
  return rows.filter((row) => row.hard === 1).length / rows.length;
}

/** Ids of the correct rows. */
export function correctIds(rows: readonly ItemResult[]): string[] {
  return rows.filter((row) => row.hard === 1).map((row) => row.itemId);
}
