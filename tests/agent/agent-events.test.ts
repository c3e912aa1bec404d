// The agent's trace read from event streams recorded from the real Codex CLI 0.171.0 and Claude Code 2.1.197
// (tests/fixtures/agent-events, against the test model server): tool calls with their output in order, tokens,
// the final message, and the agent's own error message with the HTTP status that decides whether the run stops.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectEventFormat, hopelessEvent, parseAgentEvents } from "@/lib/agent";

const recorded = (name: string) => readFileSync(`tests/fixtures/agent-events/${name}.jsonl`, "utf8");
const TASK = "## Context\n[DOC] [TLE] Eiffel Tower [PAR] A tower.\n\n## Question\nWhat tower?";

describe("parseAgentEvents", () => {
  it("reads Codex's command executions, usage and last agent message", () => {
    const stdout = recorded("codex-success");
    expect(detectEventFormat(stdout)).toBe("codex-jsonl");
    const trace = parseAgentEvents(stdout, "codex-jsonl")!;
    const tools = trace.steps.filter((step) => step.kind === "tool");
    expect(tools).toEqual([
      expect.objectContaining({ tool: "shell", input: "/bin/bash -lc 'cat task.md'", output: `${TASK}\n`, failed: false }),
      expect.objectContaining({ tool: "shell", input: "/bin/bash -lc 'cat .agents/skills/skillopt-target/SKILL.md'", failed: false }),
    ]);
    expect(trace.steps.at(-1)).toEqual({ kind: "message", text: "Reasoning...\n<answer>Eiffel Tower</answer>" });
    expect(trace.finalMessage).toBe("Reasoning...\n<answer>Eiffel Tower</answer>");
    expect(trace.usage?.inputTokens).toBeGreaterThan(1000);
    expect(trace.usage?.outputTokens).toBeGreaterThan(0);
    expect(trace.error).toBeUndefined();
  });

  it("takes Codex's turn.failed message and the status in it", () => {
    const trace = parseAgentEvents(recorded("codex-401"), "codex-jsonl")!;
    expect(trace.error).toBe("unexpected status 401 Unauthorized: Incorrect API key provided., url: http://127.0.0.1:18780/v1/responses");
    expect(trace.errorStatus).toBe(401);
    expect(trace.steps.some((step) => step.kind === "notice" && step.text.startsWith("Reconnecting... 1/1"))).toBe(true);
    const notFound = parseAgentEvents('{"type":"turn.failed","error":{"message":"The model `m2` does not exist or you do not have access to it."}}', "codex-jsonl")!;
    expect(notFound.errorStatus).toBe(404);
  });

  it("pairs Claude Code's tool_use blocks with their tool_result, in call order", () => {
    const stdout = recorded("claude-success");
    expect(detectEventFormat(stdout)).toBe("claude-stream-json");
    const trace = parseAgentEvents(stdout, "claude-stream-json")!;
    expect(trace.steps.filter((step) => step.kind === "tool").map((step) => [step.tool, step.input])).toEqual([["Bash", "cat task.md"], ["Read", "/tmp/agx/ws/.agents/skills/skillopt-target/SKILL.md"]]);
    expect(trace.steps.find((step) => step.kind === "tool")).toMatchObject({ output: TASK, failed: false });
    expect(trace.finalMessage).toBe("Reasoning...\n<answer>Eiffel Tower</answer>");
    expect(trace.usage?.inputTokens).toBeGreaterThan(1000);
    expect(trace.error).toBeUndefined();
  });

  it("takes Claude Code's is_error result and its api_error_status", () => {
    const trace = parseAgentEvents(recorded("claude-401"), "claude-stream-json")!;
    expect(trace).toMatchObject({ error: "Failed to authenticate. API Error: 401 Incorrect API key provided.", errorStatus: 401 });
    expect(trace.finalMessage).toBeUndefined();
  });

  it("reads nothing from output that is not an event stream", () => {
    expect(detectEventFormat("Thinking…\n<answer>x</answer>\n")).toBe("none");
    expect(parseAgentEvents("<answer>x</answer>", "none")).toBeNull();
  });
});

describe("hopelessEvent", () => {
  it("stops Codex when it starts waiting for the network, and nothing else", () => {
    const waiting = '{"type":"error","message":"Reconnecting... waiting for network (Connection failed: error sending request)"}';
    expect(hopelessEvent(waiting, "codex-jsonl")).toBe("Reconnecting... waiting for network (Connection failed: error sending request)");
    expect(hopelessEvent('{"type":"error","message":"Reconnecting... 1/2 (unexpected status 500)"}', "codex-jsonl")).toBeUndefined();
    expect(hopelessEvent(waiting, "claude-stream-json")).toBeUndefined();
  });
});
