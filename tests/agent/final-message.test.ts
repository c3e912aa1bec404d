// Reading an agent's final message: the last line, all of stdout, a file in the workspace, or the last matching
// event of a JSONL stream (Codex's and Claude Code's formats), also when a flood cut the output.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AGENT_PRESETS, CappedOutput, readFinalMessage, type FinalMessageSpec } from "@/lib/agent";

let workspace: string;
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), "skillboard-final-"));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const captured = (text: string, cap = 1 << 20) => {
  const out = new CappedOutput(cap);
  out.push(Buffer.from(text));
  return out.snapshot();
};
const read = (spec: FinalMessageSpec, stdout: string, cap?: number) => readFinalMessage(spec, { stdout: captured(stdout, cap), workspace, maxBytes: 1 << 20 });

describe("readFinalMessage", () => {
  it("takes the last non-blank line, or all of stdout", async () => {
    expect(await read({ from: "stdout-last-line" }, "thinking\n<answer>Rome</answer>\r\n\n  \n")).toBe("<answer>Rome</answer>");
    expect(await read({ from: "stdout-last-line" }, "")).toBe("");
    expect(await read({ from: "stdout" }, "a\n<answer>b</answer>\n\n")).toBe("a\n<answer>b</answer>");
  });

  it("reads a file the agent wrote in its workspace, and nothing outside it", async () => {
    writeFileSync(join(workspace, "answer.md"), "<answer>Paris</answer>\n");
    expect(await read({ from: "file", path: "answer.md" }, "ignored")).toBe("<answer>Paris</answer>\n");
    expect(await read({ from: "file", path: "missing.md" }, "ignored")).toBe("");
    expect(await read({ from: "file", path: "../answer.md" }, "ignored")).toBe("");
  });

  it("reads Codex's agent_message events (the last one wins)", async () => {
    const stream = [
      { type: "thread.started", thread_id: "t" },
      { type: "item.completed", item: { type: "agent_message", text: "first" } },
      { type: "item.completed", item: { type: "reasoning", text: "not this" } },
      { type: "item.completed", item: { type: "agent_message", text: "<answer>Oslo</answer>" } },
      { type: "turn.completed", usage: {} },
    ].map((event) => JSON.stringify(event)).join("\n");
    expect(await read(AGENT_PRESETS["codex-readonly"].finalMessage, `${stream}\nnot json\n`)).toBe("<answer>Oslo</answer>");
  });

  it("reads Claude Code's result message", async () => {
    const stream = [
      { type: "system", subtype: "init", model: "m" },
      { type: "assistant", message: { content: [{ type: "text", text: "Reading task.md" }] } },
      { type: "result", subtype: "success", is_error: false, result: "<answer>Lima</answer>", num_turns: 2 },
    ].map((event) => JSON.stringify(event)).join("\n");
    expect(await read(AGENT_PRESETS["claude-code"].finalMessage, stream)).toBe("<answer>Lima</answer>");
    expect(await read({ from: "jsonl", match: { type: "result" }, field: "num_turns" }, stream)).toBe("2");
  });

  it("still finds the last event after a flood cut the middle of the stream", async () => {
    const flood = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ type: "item.completed", item: { type: "command_execution", out: "x".repeat(50), i } })).join("\n");
    const last = JSON.stringify({ type: "item.completed", item: { type: "agent_message", text: "<answer>kept</answer>" } });
    expect(await read(AGENT_PRESETS["codex-readonly"].finalMessage, `${flood}\n${last}\n`, 8192)).toBe("<answer>kept</answer>");
  });
});
