import type { AgentSettings } from "./config";

/** Which per-item configuration folder the agent gets (agent-home.ts). */
export type AgentHomeKind = "none" | "codex" | "claude-code";
/** exec: the seed's exec prompt (AGENT_PROMPT); claude-code: the seed's Claude Code wording of it (claudeCodePrompt). */
export type PromptStyle = "exec" | "claude-code";

/** The versions the presets were tested with (CI installs exactly these; the README says how). */
export const TESTED_AGENT_VERSIONS = { codex: "0.171.0", claude: "2.1.197" } as const;

type PresetSettings = Omit<AgentSettings, "defaultModel" | "maxConcurrency" | "outputCapBytes" | "provider">;

const common: Pick<PresetSettings, "stdin" | "env" | "timeoutS" | "skillCopies" | "maxRetries" | "isSandbox"> = { stdin: "none", env: {}, timeoutS: 600, skillCopies: [], maxRetries: 2, isSandbox: false };

/**
 * The seed's `codex exec` (model/codex_harness.py `_run_codex_cli_exec`): its flags, sandbox and last-message
 * file, plus `--json` so the trace can be read (the seed parses the human-readable output instead), and
 * isolation: no analytics, no plugin sync, no bundled system skills beside the target skill. The model server
 * and retry bounds go in the per-item CODEX_HOME's config.toml (agent-home.ts).
 */
const CODEX_SEED_FLAGS = [
  "--skip-git-repo-check", "--color", "never", "-C", "{workspace}", "--sandbox", "workspace-write",
  "-c", 'approval_policy="never"', "-c", "sandbox_workspace_write.network_access=false", "-c", 'web_search="disabled"',
];
const CODEX_ISOLATION = ["-c", "analytics.enabled=false", "--disable", "plugins", "-c", "skills.bundled.enabled=false"];

/** The seed's `claude -p` (`_run_claude_code_cli_exec`), with stream-json output for the trace (the seed uses text). */
const CLAUDE_SEED_FLAGS = [
  "--permission-mode", "bypassPermissions", "--add-dir", "{workspace}", "--tools", "Read,Bash", "--allowedTools", "Read,Bash",
  "--effort", "medium", "--max-thinking-tokens", "16384",
];

/**
 * Ready-made agent definitions; a config entry names one with "preset" and overrides any field.
 * `codex` and `claude-code` run as the seed's exec backend does; the other two are variants that differ from it
 * on purpose (listed in the README's fidelity section).
 */
export const AGENT_PRESETS = {
  codex: {
    ...common,
    command: ["codex", "exec", "--json", ...CODEX_SEED_FLAGS, ...CODEX_ISOLATION, "{modelArgs}", "--output-last-message", "{outputFile}", "{prompt}"],
    modelArgs: ["-m", "{model}"],
    passEnv: ["OPENAI_API_KEY", "CODEX_API_KEY"],
    finalMessage: { from: "file", path: "codex_last_message.txt" },
    events: "codex-jsonl",
    home: "codex",
    promptStyle: "exec",
    description: "OpenAI Codex CLI (codex exec), as the seed runs it",
  },
  /** Not the seed: a read-only sandbox, sessions kept off the disk, the answer from the JSONL events. */
  "codex-readonly": {
    ...common,
    command: ["codex", "exec", "--json", "--skip-git-repo-check", "--ephemeral", "--color", "never", "-C", "{workspace}", "--sandbox", "read-only", ...CODEX_ISOLATION, "{modelArgs}", "{prompt}"],
    modelArgs: ["-m", "{model}"],
    passEnv: ["OPENAI_API_KEY", "CODEX_API_KEY"],
    finalMessage: { from: "jsonl", match: { type: "item.completed", "item.type": "agent_message" }, field: "item.text" },
    events: "codex-jsonl",
    home: "codex",
    promptStyle: "exec",
    description: "OpenAI Codex CLI (codex exec, read-only sandbox)",
  },
  "claude-code": {
    ...common,
    command: ["claude", "-p", "--output-format", "stream-json", "--verbose", ...CLAUDE_SEED_FLAGS, "--no-session-persistence", "{modelArgs}", "--", "{prompt}"],
    modelArgs: ["--model", "{model}"],
    passEnv: ["ANTHROPIC_API_KEY"],
    finalMessage: { from: "jsonl", match: { type: "result" }, field: "result" },
    events: "claude-stream-json",
    home: "claude-code",
    promptStyle: "claude-code",
    description: "Anthropic Claude Code (claude -p), as the seed runs it",
  },
  /** Not the seed: the skill installed as a Claude Code project skill (.claude/skills) and the plain exec prompt, default tools. */
  "claude-code-skill": {
    ...common,
    command: ["claude", "-p", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions", "--no-session-persistence", "{modelArgs}", "--", "{prompt}"],
    modelArgs: ["--model", "{model}"],
    passEnv: ["ANTHROPIC_API_KEY"],
    finalMessage: { from: "jsonl", match: { type: "result" }, field: "result" },
    skillCopies: [".claude/skills/skillopt-target"],
    events: "claude-stream-json",
    home: "claude-code",
    promptStyle: "exec",
    description: "Anthropic Claude Code (claude -p, skill as a project skill)",
  },
  generic: {
    ...common,
    command: [],
    modelArgs: [],
    passEnv: [],
    finalMessage: { from: "stdout-last-line" },
    events: "none",
    home: "none",
    promptStyle: "exec",
    description: "",
  },
} satisfies Record<string, PresetSettings>;

export type AgentPresetName = keyof typeof AGENT_PRESETS;
export const AGENT_PRESET_NAMES = Object.keys(AGENT_PRESETS) as AgentPresetName[];
