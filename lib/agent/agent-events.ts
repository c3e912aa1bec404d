/**
 * What an agent did, read from the event stream it prints on stdout: Codex CLI's `codex exec --json` JSONL
 * (`item.completed` items, `turn.completed` usage, `turn.failed` / `error`) or Claude Code's
 * `--output-format stream-json` messages (`assistant` tool_use blocks, `user` tool_result blocks, the final
 * `result`). Pure functions: the stored stdout is parsed again whenever an item is shown.
 */

export const EVENT_FORMATS = ["none", "codex-jsonl", "claude-stream-json"] as const;
export type EventFormat = (typeof EVENT_FORMATS)[number];

export type TraceStep =
  | { kind: "message"; text: string }
  | { kind: "reasoning"; text: string }
  | { kind: "tool"; tool: string; input: string; output: string; failed: boolean }
  /** A notice or error the agent reported while it worked (e.g. a retry). */
  | { kind: "notice"; text: string };

export interface AgentTrace {
  steps: TraceStep[];
  /** Summed over the turns the agent reported. */
  usage?: { inputTokens: number; outputTokens: number; cachedInputTokens: number };
  /** The agent's last message, when its events say. */
  finalMessage?: string;
  /** The agent's own account of why it failed (Codex `turn.failed` / last `error`, Claude Code's `is_error` result). */
  error?: string;
  /** The HTTP status the model server answered with, when the agent reports it. */
  errorStatus?: number;
}

type Json = Record<string, unknown>;

/** Every line of stdout that is a JSON object; others (and lines cut by the output cap) are skipped. */
function jsonLines(stdout: string): Json[] {
  const events: Json[] = [];
  for (const raw of stdout.split("\n")) {
    const line = raw.trim();
    if (!line.startsWith("{")) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (value && typeof value === "object" && !Array.isArray(value)) events.push(value as Json);
    } catch {
      // partial or foreign line
    }
  }
  return events;
}

export function parseAgentEvents(stdout: string, format: EventFormat): AgentTrace | null {
  if (format === "codex-jsonl") return parseCodexEvents(jsonLines(stdout));
  if (format === "claude-stream-json") return parseClaudeEvents(jsonLines(stdout));
  return null;
}

const str = (value: unknown): string => (typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value));
const num = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);
const obj = (value: unknown): Json => (value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {});

function parseCodexEvents(events: Json[]): AgentTrace {
  const trace: AgentTrace = { steps: [] };
  let lastError: string | undefined;
  for (const event of events) {
    if (event.type === "item.completed") {
      const item = obj(event.item);
      const step = codexItemStep(item);
      if (step) trace.steps.push(step);
      if (item.type === "agent_message") trace.finalMessage = str(item.text);
    } else if (event.type === "turn.completed") {
      const usage = obj(event.usage);
      trace.usage = addUsage(trace.usage, num(usage.input_tokens), num(usage.output_tokens), num(usage.cached_input_tokens));
    } else if (event.type === "error") {
      lastError = str(event.message);
      trace.steps.push({ kind: "notice", text: lastError });
    } else if (event.type === "turn.failed") {
      trace.error = str(obj(event.error).message) || lastError || "the turn failed";
    }
  }
  if (trace.error) {
    const status = /unexpected status (\d{3})\b/.exec(trace.error)?.[1];
    if (status) trace.errorStatus = Number(status);
    else if (/\bmodel\b.*\b(does not exist|not found)\b/i.test(trace.error)) trace.errorStatus = 404;
  }
  return trace;
}

function codexItemStep(item: Json): TraceStep | null {
  switch (item.type) {
    case "agent_message":
      return { kind: "message", text: str(item.text) };
    case "reasoning":
      return { kind: "reasoning", text: str(item.text) };
    case "command_execution":
      return { kind: "tool", tool: "shell", input: str(item.command), output: str(item.aggregated_output), failed: item.status === "failed" || (typeof item.exit_code === "number" && item.exit_code !== 0) };
    case "file_change":
      return { kind: "tool", tool: "apply_patch", input: (Array.isArray(item.changes) ? item.changes : []).map((change) => `${str(obj(change).kind)} ${str(obj(change).path)}`).join("\n"), output: str(item.status), failed: item.status === "failed" };
    case "mcp_tool_call":
      return { kind: "tool", tool: `${str(item.server)}.${str(item.tool)}`, input: str(item.arguments), output: str(item.result ?? item.error), failed: item.status === "failed" };
    case "web_search":
      return { kind: "tool", tool: "web_search", input: str(item.query), output: "", failed: false };
    case "error":
      return { kind: "notice", text: str(item.message) };
    default:
      return null;
  }
}

function parseClaudeEvents(events: Json[]): AgentTrace {
  const trace: AgentTrace = { steps: [] };
  const toolSteps = new Map<string, Extract<TraceStep, { kind: "tool" }>>();
  for (const event of events) {
    const content = Array.isArray(obj(event.message).content) ? (obj(event.message).content as unknown[]) : [];
    if (event.type === "assistant") {
      for (const raw of content) {
        const block = obj(raw);
        if (block.type === "text") trace.steps.push({ kind: "message", text: str(block.text) });
        else if (block.type === "thinking") trace.steps.push({ kind: "reasoning", text: str(block.thinking) });
        else if (block.type === "tool_use") {
          const step = { kind: "tool" as const, tool: str(block.name), input: toolInput(obj(block.input)), output: "", failed: false };
          trace.steps.push(step);
          toolSteps.set(str(block.id), step);
        }
      }
    } else if (event.type === "user") {
      for (const raw of content) {
        const block = obj(raw);
        const step = block.type === "tool_result" ? toolSteps.get(str(block.tool_use_id)) : undefined;
        if (!step) continue;
        step.output = Array.isArray(block.content) ? block.content.map((part) => str(obj(part).text)).join("\n") : str(block.content);
        step.failed = block.is_error === true;
      }
    } else if (event.type === "system" && event.subtype === "api_retry") {
      trace.steps.push({ kind: "notice", text: `retrying the model request (attempt ${num(event.attempt)} of ${num(event.max_retries)}): ${str(event.error)}${event.error_status ? ` (HTTP ${num(event.error_status)})` : ""}` });
    } else if (event.type === "result") {
      const usage = obj(event.usage);
      const cached = num(usage.cache_read_input_tokens);
      trace.usage = addUsage(trace.usage, num(usage.input_tokens) + cached + num(usage.cache_creation_input_tokens), num(usage.output_tokens), cached);
      if (event.is_error === true) {
        trace.error = str(event.result) || (Array.isArray(event.errors) ? event.errors.map(str).join("; ") : "") || str(event.subtype) || "the agent reported an error";
        if (typeof event.api_error_status === "number") trace.errorStatus = event.api_error_status;
      } else {
        trace.finalMessage = str(event.result);
      }
    }
  }
  return trace;
}

/** A tool call's input as a user reads it: the command or path when there is one, else the JSON. */
function toolInput(input: Json): string {
  if (typeof input.command === "string") return input.command;
  if (typeof input.file_path === "string") return input.file_path;
  return JSON.stringify(input);
}

function addUsage(usage: AgentTrace["usage"], inputTokens: number, outputTokens: number, cachedInputTokens: number): NonNullable<AgentTrace["usage"]> {
  return {
    inputTokens: (usage?.inputTokens ?? 0) + inputTokens,
    outputTokens: (usage?.outputTokens ?? 0) + outputTokens,
    cachedInputTokens: (usage?.cachedInputTokens ?? 0) + cachedInputTokens,
  };
}

/**
 * An event that means the agent will only wait or retry from now on (Codex retries a server that does not
 * answer forever): the agent is stopped at once with this message as the item's reason. Checked per line.
 */
export function hopelessEvent(line: string, format: EventFormat): string | undefined {
  if (format !== "codex-jsonl" || !line.includes("waiting for network")) return undefined;
  try {
    const event = obj(JSON.parse(line));
    return event.type === "error" ? str(event.message) : undefined;
  } catch {
    return undefined;
  }
}

/** Which event stream stdout holds, from its first event (the item view does not depend on today's config). */
export function detectEventFormat(stdout: string): EventFormat {
  for (const event of jsonLines(stdout.slice(0, 64 * 1024))) {
    if (typeof event.type !== "string") continue;
    if (event.type === "thread.started" || event.type === "turn.started" || event.type.startsWith("item.")) return "codex-jsonl";
    if ((event.type === "system" && event.subtype === "init") || event.type === "assistant" || event.type === "result") return "claude-stream-json";
  }
  return "none";
}
