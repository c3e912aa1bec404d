/**
 * How upstream shows a SearchQA trajectory to the optimizer. Ports of `fmt_trajectory` and
 * `fmt_minibatch_trajectories` (skillopt/gradient/reflect.py) for the rows the SearchQA rollout writes
 * (skillopt/envs/searchqa/rollout.py `process_one`: `predictions/<id>/conversation.json`,
 * `target_system_prompt.txt`, `target_user_prompt.txt`).
 */
import type { ConversationEntry, ItemResult } from "../../runs/types";

/** One rollout row as the analyst sees it. */
export interface AnalystTrajectory {
  id: string;
  /** The row's `fail_reason` ("" for a correct item: no line is written). */
  failReason: string;
  /** The row's `n_turns` (model turns; the evaluation record is not counted). */
  nTurns: number;
  /**
   * The saved conversation.json: each model turn, then the evaluation record. null when upstream wrote none —
   * it writes the file only after the agent answered, so error and timeout rows have none; such a row is left
   * out of the prompt but still counts in the trajectory numbering and in the "(N total)" heading.
   */
  conversation: readonly ConversationEntry[] | null;
  /** The system prompt the target was given (the skill inside the rollout template). */
  targetSystemPrompt: string;
  /** The user prompt the target was given (context and question). */
  targetUserPrompt: string;
}

/**
 * A stored rollout row as upstream's analyst input: it had a conversation.json exactly when the agent
 * answered (`agent_ok`). `systemPrompt` is the run's system prompt (the same for every item of a run).
 */
export function analystTrajectory(row: ItemResult, systemPrompt: string): AnalystTrajectory {
  return {
    id: row.itemId,
    failReason: row.failReason,
    nTurns: row.nTurns,
    conversation: row.agentOk ? row.conversation : null,
    targetSystemPrompt: systemPrompt,
    targetUserPrompt: row.userPrompt,
  };
}

/**
 * `fmt_trajectory` (and slow_update.py's `_read_trajectory` loop, identical for these entries): a model turn
 * has no role, so it prints as `[agent]`; the evaluation record is a system entry, `[verification]`.
 */
export function renderConversation(conversation: readonly ConversationEntry[]): string {
  return conversation
    .map((entry) => ("role" in entry ? `[verification] ${entry.content}` : `[agent] ${entry.content}`))
    .join("\n");
}

/**
 * Upstream writes the target prompts with text-mode `open(..., "w")` and reads them back with text-mode
 * `open()`, whose universal newlines turn `\r\n` and a lone `\r` into `\n` (conversation.json, being JSON,
 * keeps its `\r`s).
 */
function throughTextFile(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** `fmt_minibatch_trajectories`: one block per trajectory, separated by `---`. */
export function formatMinibatchTrajectories(trajectories: readonly AnalystTrajectory[]): string {
  const parts: string[] = [];
  trajectories.forEach((trajectory, index) => {
    if (!trajectory.conversation || trajectory.conversation.length === 0) return;
    // Task / Task type: upstream reads `task_description` / `task_type`, which SearchQA's process_one rows do
    // not carry, so both lines stay empty.
    let header = `### Trajectory ${index + 1} (id=${trajectory.id})\nTask: \nTask type: \n`;
    if (trajectory.failReason) header += `Failure reason: ${trajectory.failReason}\n`;
    header += `Steps: ${trajectory.nTurns}\n`;
    const systemPrompt = throughTextFile(trajectory.targetSystemPrompt);
    if (systemPrompt) header += `\n#### Target System Prompt\n${systemPrompt}\n`;
    const userPrompt = throughTextFile(trajectory.targetUserPrompt);
    if (userPrompt) header += `\n#### Target User Prompt\n${userPrompt}\n`;
    parts.push(header + "\n" + renderConversation(trajectory.conversation));
  });
  return parts.join("\n\n---\n\n");
}
