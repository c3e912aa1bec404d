import { describe, expect, it } from "vitest";
import { ChatRequestBodyEncoder } from "../../lib/model/chat-request-body";
import type { ChatMessage } from "../../lib/model/types";

/** What the SDK sends for `chat.completions.create(params)`: JSON.stringify of the params, as UTF-8. */
function sdkBody(model: string, messages: ChatMessage[], maxCompletionTokens: number | undefined, temperature?: number): string {
  return JSON.stringify({
    model,
    messages: messages.map((message) => ({ role: message.role, content: message.content })),
    max_completion_tokens: maxCompletionTokens,
    ...(temperature !== undefined ? { temperature } : {}),
  });
}

const SKILL = "# Skill\nUse the \u201cpassages\u201d only; answer in <answer>\u2026</answer>. Emoji: \uD83D\uDE00, a lone \uD800 too.\n\"quoted\" \\ back";

describe("ChatRequestBodyEncoder", () => {
  it("writes the bytes JSON.stringify of the SDK's params gives, for any text, with and without a temperature", () => {
    const encoder = new ChatRequestBodyEncoder("gpt-4.1-mini");
    const cases: [ChatMessage[], number | undefined, number | undefined][] = [
      [[{ role: "system", content: SKILL }, { role: "user", content: "Q: who?\n[DOC] [TLE] \u00e9t\u00e9 [PAR] text" }], 2048, undefined],
      [[{ role: "system", content: SKILL }, { role: "user", content: "second item" }], 2048, 0],
      [[{ role: "system", content: SKILL }, { role: "user", content: "q" }, { role: "assistant", content: "no tag" }, { role: "user", content: "Refine \u201cit\u201d" }], 512, 0.7],
      [[{ role: "user", content: "no system message" }], undefined, undefined],
      [[], 16, undefined],
    ];
    for (const [messages, maxTokens, temperature] of cases) {
      expect(encoder.encode(messages, maxTokens, temperature).toString("utf8")).toBe(sdkBody("gpt-4.1-mini", messages, maxTokens, temperature));
    }
  });

  it("re-encodes the first message when it changes (another skill version on the same model)", () => {
    const encoder = new ChatRequestBodyEncoder("m");
    const user: ChatMessage = { role: "user", content: "u" };
    const first = encoder.encode([{ role: "system", content: "skill v1" }, user], 10);
    const second = encoder.encode([{ role: "system", content: "skill v2" }, user], 10);
    const asUser = encoder.encode([{ role: "user", content: "skill v2" }, user], 10);
    expect(JSON.parse(first.toString()).messages[0].content).toBe("skill v1");
    expect(JSON.parse(second.toString()).messages[0].content).toBe("skill v2");
    expect(JSON.parse(asUser.toString()).messages[0]).toEqual({ role: "user", content: "skill v2" });
  });

  it("escapes the model name", () => {
    expect(new ChatRequestBodyEncoder('a "b"').encode([], 1).toString()).toBe(sdkBody('a "b"', [], 1));
  });
});
