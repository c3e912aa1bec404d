// The agents file: presets, overrides, and errors that name the file and the field.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentConfigError, agentEnvironment, expandCommand, findAgent, loadAgentConfig, parseAgentConfig, summarizeAgent } from "@/lib/agent";
import { AGENTS_CONFIG } from "../support/agents";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "skillboard-agents-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function errorOf(raw: unknown): string {
  try {
    parseAgentConfig(raw, "skillboard.config.json", dir);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentConfigError);
    return (error as Error).message;
  }
  throw new Error("expected an AgentConfigError");
}

describe("loadAgentConfig", () => {
  it("has no agents without a file, and reads skillboard.config.json from the working directory", () => {
    expect(loadAgentConfig({ env: {}, cwd: dir })).toEqual({ path: null, agents: [] });
    writeFileSync(join(dir, "skillboard.config.json"), JSON.stringify({ agents: { mine: { command: ["my-agent", "{prompt}"] } } }));
    const config = loadAgentConfig({ env: {}, cwd: dir });
    expect(config.path).toBe(join(dir, "skillboard.config.json"));
    expect(config.agents.map((agent) => agent.name)).toEqual(["mine"]);
  });

  it("reads SKILLBOARD_CONFIG, which must exist", () => {
    const config = loadAgentConfig({ env: { SKILLBOARD_CONFIG: AGENTS_CONFIG }, cwd: dir });
    expect(config.agents.map((agent) => agent.name)).toContain("fake");
    expect(() => loadAgentConfig({ env: { SKILLBOARD_CONFIG: "nope.json" }, cwd: dir })).toThrow(/nope\.json: no such file \(SKILLBOARD_CONFIG names it\)/);
  });

  it("accepts the example file shipped with the project", () => {
    const config = loadAgentConfig({ env: { SKILLBOARD_CONFIG: "skillboard.config.example.json" } });
    expect(config.agents.map((agent) => [agent.name, agent.preset])).toEqual([["codex", "codex"], ["claude", "claude-code"], ["echo-answer", "generic"]]);
  });

  it("names the file when it is not JSON", () => {
    writeFileSync(join(dir, "skillboard.config.json"), "{ agents: ");
    expect(() => loadAgentConfig({ env: {}, cwd: dir })).toThrow(/^skillboard\.config\.json: not valid JSON: /);
  });
});

describe("parseAgentConfig", () => {
  it("applies a preset and lets fields override it", () => {
    const [codex, claude] = parseAgentConfig(
      { agents: { codex: { preset: "codex", defaultModel: "gpt-5.5", timeoutS: 900 }, claude: { preset: "claude-code" } } },
      "f.json",
      dir,
    );
    expect(codex).toMatchObject({ name: "codex", preset: "codex", defaultModel: "gpt-5.5", timeoutS: 900, stdin: "none", home: "codex", events: "codex-jsonl" });
    // The seed's codex exec flags, sandbox and last-message file.
    expect(codex!.command.join(" ")).toBe(
      "codex exec --json --skip-git-repo-check --color never -C {workspace} --sandbox workspace-write -c approval_policy=\"never\" " +
      "-c sandbox_workspace_write.network_access=false -c web_search=\"disabled\" -c analytics.enabled=false --disable plugins " +
      "-c skills.bundled.enabled=false {modelArgs} --output-last-message {outputFile} {prompt}",
    );
    expect(codex!.finalMessage).toEqual({ from: "file", path: "codex_last_message.txt" });
    // The seed's claude -p: its tools, thinking settings, and "--" before the prompt.
    expect(claude!.command.join(" ")).toBe(
      "claude -p --output-format stream-json --verbose --permission-mode bypassPermissions --add-dir {workspace} --tools Read,Bash " +
      "--allowedTools Read,Bash --effort medium --max-thinking-tokens 16384 --no-session-persistence {modelArgs} -- {prompt}",
    );
    expect(claude).toMatchObject({ skillCopies: [], promptStyle: "claude-code", isSandbox: false, home: "claude-code" });
    expect(summarizeAgent(codex!)).toEqual({ name: "codex", preset: "codex", description: "OpenAI Codex CLI (codex exec), as the seed runs it", defaultModel: "gpt-5.5" });
    const [variant] = parseAgentConfig({ agents: { c: { preset: "claude-code-skill" } } }, "f.json", dir);
    expect(variant!.skillCopies).toEqual([".claude/skills/skillopt-target"]);
  });

  it("names the field of each mistake", () => {
    expect(errorOf({ agents: { a: { command: "codex exec" } } })).toMatch(/^skillboard\.config\.json: agents\.a\.command: /);
    expect(errorOf({ agents: { a: {} } })).toBe("skillboard.config.json: agents.a.command: required (the program and its arguments)");
    expect(errorOf({ agents: { a: { command: ["x"], timeoutS: -1 } } })).toMatch(/^skillboard\.config\.json: agents\.a\.timeoutS: /);
    expect(errorOf({ agents: { a: { preset: "gemini" } } })).toMatch(/agents\.a\.preset: preset must be one of codex, codex-readonly, claude-code, claude-code-skill, generic/);
    expect(errorOf({ agents: { a: { preset: "codex", provider: { baseUrl: "ftp://x" } } } })).toMatch(/agents\.a\.provider\.baseUrl: baseUrl must be an http/);
    expect(errorOf({ agents: { a: { command: ["x"], provider: { baseUrl: "http://h/v1" } } } })).toMatch(/agents\.a\.provider: only the codex and claude-code presets/);
    expect(errorOf({ agents: { a: { preset: "codex", provider: { baseUrl: "http://h/v1", authTokenEnv: "T" } } } })).toMatch(/agents\.a\.provider\.authTokenEnv: only Claude Code/);
    expect(errorOf({ agents: { a: { command: ["x"], finalMessage: { from: "file", path: "../etc/passwd" } } } })).toMatch(/agents\.a\.finalMessage\.path: path must be a relative path inside the workspace/);
    expect(errorOf({ agents: { a: { command: ["x"], comand: ["y"] } } })).toMatch(/agents\.a: .*comand/i);
    expect(errorOf({ agents: { "bad name!": { command: ["x"] } } })).toMatch(/agents\.bad name!/);
    expect(errorOf({ agents: { a: { command: ["x", "{promt}"] } } })).toMatch(/agents\.a\.command\[1\]: unknown placeholder \{promt\}/);
    expect(errorOf({ agents: { a: { command: ["x", "--m={modelArgs}"] } } })).toMatch(/\{modelArgs\} must be a whole argument/);
    expect(errorOf({ agents: { a: { command: ["x", "{outputFile}"] } } })).toMatch(/\{outputFile\} needs finalMessage/);
    expect(errorOf({ agents: { a: { command: ["x"], env: { "A-B": "1" } } } })).toMatch(/agents\.a\.env\.A-B/);
  });

  it("says which agents exist when one is not configured", () => {
    const config = loadAgentConfig({ env: { SKILLBOARD_CONFIG: AGENTS_CONFIG } });
    expect(() => findAgent(config, "nope")).toThrow(/agent "nope" is not configured in .*skillboard\.config\.json; configured: fake, hang/);
    expect(() => findAgent({ path: null, agents: [] }, "codex")).toThrow(/not found; set SKILLBOARD_CONFIG or create it/);
  });
});

describe("expandCommand and agentEnvironment", () => {
  const [agent] = parseAgentConfig(
    { agents: { a: { command: ["run", "{modelArgs}", "--in", "{workspace}", "--task={taskFile}", "{prompt}", "{configDir}/x", "{outputFile}"], modelArgs: ["-m", "{model}"], finalMessage: { from: "file", path: "out.txt" }, passEnv: ["MY_KEY"], env: { MODE: "test" } } } },
    "f.json",
    "/cfg",
  );

  it("replaces placeholders and drops the model arguments when no model is chosen", () => {
    const values = { workspace: "/w", prompt: "do it; rm -rf /", promptFile: "/p.md" };
    expect(expandCommand(agent!, { ...values, model: "m1" })).toEqual(["run", "-m", "m1", "--in", "/w", "--task=/w/task.md", "do it; rm -rf /", "/cfg/x", "/w/out.txt"]);
    expect(expandCommand(agent!, values)).toEqual(["run", "--in", "/w", "--task=/w/task.md", "do it; rm -rf /", "/cfg/x", "/w/out.txt"]);
  });

  it("passes only the base variables, the passEnv names and the agent's env", () => {
    const env = agentEnvironment(agent!, { PATH: "/bin", HOME: "/root", MY_KEY: "k", SKILLBOARD_TOKEN: "secret-token-123456", OPENAI_API_KEY: "sk", DATABASE_URL: "file:x" });
    expect(env).toEqual({ PATH: "/bin", HOME: "/root", MY_KEY: "k", MODE: "test" });
  });
});
