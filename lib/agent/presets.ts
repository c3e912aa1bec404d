import type { AgentSettings } from "./config";

/**
 * Ready-made agent definitions; a config entry names one with "preset" and overrides any field.
 * Written from the tools' documentation:
 * - Codex CLI, non-interactive mode (`codex exec`): with `--json` it prints JSONL events on stdout, the
 *   agent's answer being an `item.completed` event whose item has type `agent_message`; `--sandbox read-only`
 *   (the default of exec) lets it read but not write; `--skip-git-repo-check` because workspaces are not Git
 *   repositories; `--ephemeral` keeps session files off the disk. Codex finds skills in `.agents/skills/`.
 * - Claude Code, print mode (`claude -p`): `--output-format stream-json` (which needs `--verbose`) prints JSONL
 *   messages ending with one of type `result` whose `result` field is the final answer. Claude Code finds
 *   project skills in `.claude/skills/<name>/SKILL.md`, so the skill is also copied there.
 * - generic: any command; its final answer is the last line it prints.
 */
export const AGENT_PRESETS = {
  codex: {
    command: ["codex", "exec", "--json", "--skip-git-repo-check", "--ephemeral", "--sandbox", "read-only", "{modelArgs}", "{prompt}"],
    modelArgs: ["--model", "{model}"],
    stdin: "none",
    env: {},
    passEnv: ["OPENAI_API_KEY", "CODEX_HOME"],
    timeoutS: 600,
    finalMessage: { from: "jsonl", match: { type: "item.completed", "item.type": "agent_message" }, field: "item.text" },
    skillCopies: [],
    description: "OpenAI Codex CLI (codex exec)",
  },
  "claude-code": {
    command: ["claude", "-p", "--output-format", "stream-json", "--verbose", "{modelArgs}", "{prompt}"],
    modelArgs: ["--model", "{model}"],
    stdin: "none",
    env: {},
    passEnv: ["ANTHROPIC_API_KEY", "CLAUDE_CONFIG_DIR"],
    timeoutS: 600,
    finalMessage: { from: "jsonl", match: { type: "result" }, field: "result" },
    skillCopies: [".claude/skills/skillopt-target"],
    description: "Anthropic Claude Code (claude -p)",
  },
  generic: {
    command: [],
    modelArgs: [],
    stdin: "none",
    env: {},
    passEnv: [],
    timeoutS: 600,
    finalMessage: { from: "stdout-last-line" },
    skillCopies: [],
    description: "",
  },
} satisfies Record<string, Omit<AgentSettings, "defaultModel" | "maxConcurrency" | "outputCapBytes">>;

export type AgentPresetName = keyof typeof AGENT_PRESETS;
export const AGENT_PRESET_NAMES = Object.keys(AGENT_PRESETS) as AgentPresetName[];
