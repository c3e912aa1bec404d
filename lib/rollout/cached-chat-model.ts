/**
 * The response cache around a run's chat model: a request seen before is answered from the database (marked with the
 * run that produced the reply, costing no tokens), a new one is sent and its reply stored. Errors are never stored.
 */
import { findCachedResponse, storeCachedResponse, type Db } from "../db";
import { responseCacheKey } from "../model/response-cache-key";
import type { ChatModel } from "../model/types";

export function cachedChatModel(db: Db, model: ChatModel, origin: { runId: number; baseURL?: string }): ChatModel {
  return {
    backend: model.backend,
    model: model.model,
    async complete(request, observer) {
      const key = responseCacheKey({
        backend: model.backend,
        baseURL: origin.baseURL,
        model: model.model,
        params: { maxCompletionTokens: request.maxCompletionTokens, temperature: request.temperature },
        messages: request.messages,
      });
      const hit = await findCachedResponse(db, key);
      if (hit) return { text: hit.text, promptTokens: 0, completionTokens: 0, attempts: 0, retries: 0, rateLimited: 0, cachedFromRunId: hit.runId };
      const reply = await model.complete(request, observer);
      await storeCachedResponse(db, key, { text: reply.text, promptTokens: reply.promptTokens, completionTokens: reply.completionTokens, runId: origin.runId });
      return reply;
    },
  };
}
