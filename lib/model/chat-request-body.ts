import type { ChatMessage } from "./types";

const COMMA = Buffer.from(",");

/**
 * A Chat Completions request body as the UTF-8 bytes the OpenAI SDK would send, byte for byte what `JSON.stringify` of
 * `{ model, messages, max_completion_tokens, temperature }` gives (keys in that order), with the first message's JSON
 * encoded once and reused while it stays the same.
 *
 * Why: a run sends its system prompt (the skill, often ~30 KB) with every item. Handed a params object, the SDK
 * stringifies all of it per call, and a skill with any character past U+00FF (a curly quote) makes that a two-byte
 * string of twice the size, which is then encoded to UTF-8 again; a 20,000-item run allocated ~100 KB per call for it.
 * Here only the item's own messages are encoded per call.
 */
export class ChatRequestBodyEncoder {
  private readonly head: Buffer;
  private first: { role: string; content: string; json: Buffer } | undefined;

  constructor(model: string) {
    this.head = Buffer.from(`{"model":${JSON.stringify(model)},"messages":[`);
  }

  encode(messages: readonly ChatMessage[], maxCompletionTokens: number | undefined, temperature?: number): Buffer {
    const parts: Buffer[] = [this.head];
    messages.forEach((message, index) => {
      if (index > 0) parts.push(COMMA);
      parts.push(index === 0 ? this.firstMessageJson(message) : messageJson(message));
    });
    // The remaining fields as JSON.stringify writes them (an undefined one is left out): "{}" when there are none.
    const rest = JSON.stringify({ max_completion_tokens: maxCompletionTokens, ...(temperature !== undefined ? { temperature } : {}) });
    parts.push(Buffer.from(rest === "{}" ? "]}" : `],${rest.slice(1)}`));
    return Buffer.concat(parts);
  }

  private firstMessageJson(message: ChatMessage): Buffer {
    const cached = this.first;
    if (cached && cached.role === message.role && cached.content === message.content) return cached.json;
    const json = messageJson(message);
    this.first = { role: message.role, content: message.content, json };
    return json;
  }
}

function messageJson(message: ChatMessage): Buffer {
  return Buffer.from(JSON.stringify({ role: message.role, content: message.content }));
}
