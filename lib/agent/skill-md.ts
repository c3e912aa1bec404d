import { pyStrip } from "../text/python";

/**
 * The seed's exec backend (`_build_codex_skill`, `_run_codex_once`): the skill installed as an agent skill,
 * the task file, and the fixed instruction the agent is given. Byte for byte as the seed writes them
 * (golden-tested against its two example SKILL.md files).
 */

export const SKILL_NAME = "skillopt-target";
/** Where the skill goes in the workspace, as agents that follow the open agent-skills layout look for it. */
export const SKILL_DIR = `.agents/skills/${SKILL_NAME}`;
export const SKILL_FILE = `${SKILL_DIR}/SKILL.md`;
export const TASK_FILE = "task.md";

const DESCRIPTION = "Dynamic ReflACT skill for solving the current SearchQA example.";
const PREAMBLE =
  "Use this skill when solving the current SearchQA task.\n" +
  "Read the provided context carefully, ground the answer in that context,\n" +
  "and return the final answer inside <answer>...</answer>.";
const BLANK_GUIDANCE = "No additional dynamic guidance was provided for this task.";

/** What the agent is asked, every turn (the seed's `prompt` in `_run_codex_once`). */
export const AGENT_PROMPT =
  "Use the `skillopt-target` skill available in this workspace.\n" +
  "Read `task.md` and answer the SearchQA question.\n" +
  "Return the final answer inside <answer>...</answer>.";

/**
 * The seed's Claude Code prompt (`_exec_prompt` around `_normalize_target_exec_prompt`): read the files
 * directly, no Skill tool, no permission questions, no edits, only the final answer.
 */
export function claudeCodePrompt(prompt: string = AGENT_PROMPT): string {
  const normalized = prompt.replace(
    "Use the `skillopt-target` skill available in this workspace.",
    `Read \`${SKILL_FILE}\` directly; do not call a Skill tool.`,
  );
  return (
    `Use the workspace files to solve the task. Read task.md and the skill at ${SKILL_FILE} before answering. ` +
    "If ATTACHMENTS.md exists, read it and inspect the listed local files. " +
    "Do not call a Skill tool; the ReflACT guidance is a local markdown file. " +
    "Do not ask for permission. Do not modify files. " +
    "Return only the final answer text, keeping any required <answer>...</answer> tags exactly.\n\n" +
    normalized
  );
}

export interface RenderSkillMdOptions {
  name?: string;
  description: string;
  preamble: string;
}

/**
 * The seed's `render_skill_md`, inferred from its two example outputs: front matter with the name and
 * description as double-quoted strings, the title, the preamble, then the stripped skill under
 * "## Dynamic Guidance" (a fixed sentence when it is blank), ending with one newline.
 */
export function renderSkillMd(skillContent: string, options: RenderSkillMdOptions): string {
  const body = pyStrip(skillContent) || BLANK_GUIDANCE;
  return [
    "---",
    `name: ${JSON.stringify(options.name ?? SKILL_NAME)}`,
    `description: ${JSON.stringify(options.description)}`,
    "---",
    "",
    "# ReflACT Target Skill",
    "",
    options.preamble,
    "",
    "## Dynamic Guidance",
    "",
    body,
    "",
  ].join("\n");
}

/** The seed's `_build_codex_skill`: the SKILL.md an exec run installs for this skill. */
export function buildAgentSkillMd(skillContent: string): string {
  return renderSkillMd(skillContent, { description: DESCRIPTION, preamble: PREAMBLE });
}

/**
 * The seed's task text: the chat path's user prompt, and on later turns the previous answer to review.
 */
export function buildTaskText(userPrompt: string, previousResponse: string): string {
  const parts = [userPrompt];
  if (previousResponse) {
    parts.push(
      "## Previous Attempt\n" + `${previousResponse}\n\n` + "Review it against the same context and question. If needed, correct it.",
    );
  }
  return parts.join("\n\n");
}
