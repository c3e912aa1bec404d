/**
 * The two streamed protocols coding agents speak, for the fake model server (fake-openai-server.ts):
 * OpenAI's Responses API (`POST /v1/responses`, what Codex CLI sends to a custom provider) and Anthropic's
 * Messages API (`POST /v1/messages`, what Claude Code sends to ANTHROPIC_BASE_URL).
 *
 * The scripted model behaves like a real agent model: while the conversation holds no tool output, it calls
 * the agent's own tools (as the agent declared them in the request) to read task.md and SKILL.md; once the
 * outputs are back it answers `<answer>…</answer>` from what they showed, with the chat route's answer rule.
 * So the agent really runs the tool calls in its workspace, and a wrong tool wiring gives a wrong answer.
 */

import type http from "node:http";
import type { FakeChatRequest, JsonObject } from "./fake-openai-server";

export const SKILL_PATH = ".agents/skills/skillopt-target/SKILL.md";

/** A tool call the model makes: the agent's tool name and its JSON arguments. */
export interface ScriptedToolCall {
  name: string;
  input: Record<string, unknown>;
}

/** What the scripted model does next: call tools, or answer with text. */
export type ScriptedTurn = { kind: "tools"; calls: ScriptedToolCall[] } | { kind: "text"; text: string };

export interface AgentRequest {
  protocol: "responses" | "messages";
  model: string;
  /** The tool names the agent offered. */
  tools: string[];
  /** Text of every tool output so far, in order. */
  toolOutputs: string[];
  /** Working directory the agent states in its system prompt, when it does. */
  cwd?: string;
}

/** Parses a Responses API request body. */
export function responsesRequest(body: JsonObject): AgentRequest {
  const input = Array.isArray(body.input) ? (body.input as JsonObject[]) : [];
  const toolOutputs = input.filter((item) => item.type === "function_call_output").map((item) => textOf(item.output));
  return { protocol: "responses", model: String(body.model ?? ""), tools: toolNames(body.tools), toolOutputs };
}

/** Parses a Messages API request body. */
export function messagesRequest(body: JsonObject): AgentRequest {
  const messages = Array.isArray(body.messages) ? (body.messages as JsonObject[]) : [];
  const toolOutputs: string[] = [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as JsonObject[]) if (block.type === "tool_result") toolOutputs.push(textOf(block.content));
  }
  const system = textOf(body.system);
  const cwd = /Primary working directory:\s*(\S+)/.exec(system)?.[1];
  return { protocol: "messages", model: String(body.model ?? ""), tools: toolNames(body.tools), toolOutputs, ...(cwd ? { cwd } : {}) };
}

/**
 * The scripted agent model's next turn. First: read task.md and SKILL.md with the agent's shell tool
 * (Codex: exec_command; Claude Code: Bash for task.md, Read for SKILL.md). Then: the answer the chat route
 * would give for the tool outputs (`answer` decides it, from a user message holding them).
 */
export async function scriptedTurn(req: AgentRequest, answer: (req: FakeChatRequest) => string | Promise<string>): Promise<ScriptedTurn> {
  if (req.toolOutputs.length === 0) {
    const calls = readCalls(req);
    if (calls.length > 0) return { kind: "tools", calls };
  }
  const content = req.toolOutputs.join("\n");
  const messages = [{ role: "user", content }];
  return { kind: "text", text: await answer({ model: req.model, messages, body: {} }) };
}

function readCalls(req: AgentRequest): ScriptedToolCall[] {
  const has = (name: string) => req.tools.includes(name);
  if (has("exec_command")) return [{ name: "exec_command", input: { cmd: "cat task.md" } }, { name: "exec_command", input: { cmd: `cat ${SKILL_PATH}` } }];
  if (has("shell")) return [{ name: "shell", input: { command: ["cat", "task.md"] } }];
  if (has("Bash")) {
    const skill: ScriptedToolCall = has("Read") && req.cwd ? { name: "Read", input: { file_path: `${req.cwd}/${SKILL_PATH}` } } : { name: "Bash", input: { command: `cat ${SKILL_PATH}` } };
    return [{ name: "Bash", input: { command: "cat task.md", description: "Read the task" } }, skill];
  }
  return [];
}

const tokensOf = (chars: number) => Math.ceil(chars / 4);

function sse(res: http.ServerResponse, events: JsonObject[]): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const event of events) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

/** Streams a turn as the Responses API does: created, each output item added and done, completed with usage. */
export function streamResponses(res: http.ServerResponse, turn: ScriptedTurn, input: { id: string; model: string; promptChars: number }): void {
  const items: JsonObject[] = turn.kind === "tools"
    ? turn.calls.map((call, index) => ({
        type: "function_call", id: `fc_${input.id}_${index}`, call_id: `call_${input.id}_${index}`, name: call.name,
        arguments: JSON.stringify(call.input), status: "completed",
      }))
    : [{ type: "message", id: `msg_${input.id}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: turn.text, annotations: [] }] }];
  const response = { id: `resp_${input.id}`, object: "response", created_at: Math.floor(Date.now() / 1000), model: input.model };
  const outputTokens = tokensOf(items.map((item) => JSON.stringify(item)).join("").length);
  const events: JsonObject[] = [{ type: "response.created", response: { ...response, status: "in_progress", output: [] } }];
  items.forEach((item, index) => {
    events.push({ type: "response.output_item.added", output_index: index, item: item.type === "message" ? { ...item, status: "in_progress", content: [] } : item });
    if (turn.kind === "text") events.push({ type: "response.output_text.delta", output_index: index, content_index: 0, item_id: item.id, delta: turn.text });
    events.push({ type: "response.output_item.done", output_index: index, item });
  });
  events.push({
    type: "response.completed",
    response: {
      ...response, status: "completed", output: items,
      usage: {
        input_tokens: tokensOf(input.promptChars), input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: tokensOf(input.promptChars) + outputTokens,
      },
    },
  });
  sse(res, events);
}

/** Streams a turn as the Messages API does: message_start, content blocks with their deltas, message_delta, message_stop. */
export function streamMessages(res: http.ServerResponse, turn: ScriptedTurn, input: { id: string; model: string; promptChars: number }): void {
  const events: JsonObject[] = [{
    type: "message_start",
    message: {
      id: `msg_${input.id}`, type: "message", role: "assistant", model: input.model, content: [], stop_reason: null, stop_sequence: null,
      usage: { input_tokens: tokensOf(input.promptChars), output_tokens: 1 },
    },
  }];
  let outputChars = 0;
  if (turn.kind === "tools") {
    turn.calls.forEach((call, index) => {
      const json = JSON.stringify(call.input);
      outputChars += json.length;
      events.push(
        { type: "content_block_start", index, content_block: { type: "tool_use", id: `toolu_${input.id}_${index}`, name: call.name, input: {} } },
        { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json } },
        { type: "content_block_stop", index },
      );
    });
  } else {
    outputChars = turn.text.length;
    events.push(
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: turn.text } },
      { type: "content_block_stop", index: 0 },
    );
  }
  events.push(
    { type: "message_delta", delta: { stop_reason: turn.kind === "tools" ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: tokensOf(outputChars) } },
    { type: "message_stop" },
  );
  sse(res, events);
}

/** An Anthropic-shaped error body. */
export function anthropicError(status: number, message: string): string {
  const type = status === 401 ? "authentication_error" : status === 404 ? "not_found_error" : status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error";
  return JSON.stringify({ type: "error", error: { type, message } });
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return (tools as JsonObject[]).map((tool) => tool.name).filter((name): name is string => typeof name === "string");
}

/** Text of a tool output or system prompt: a string, or blocks with `text`. */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map((part) => textOf(typeof part === "object" && part !== null && "text" in part ? (part as { text: unknown }).text : part)).join("\n");
  if (typeof value === "object" && value !== null && "output" in value) return textOf((value as { output: unknown }).output);
  return value === undefined || value === null ? "" : JSON.stringify(value);
}
