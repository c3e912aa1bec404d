/**
 * Port of `format_meta_skill_context` (skillopt/optimizer/meta_skill.py): the optimizer memory block the
 * analyst, merge and ranking requests carry once a meta skill exists.
 */
import { pyStrip } from "../../text/python";

export function formatMetaSkillContext(metaSkillContent: string): string {
  const content = pyStrip(metaSkillContent);
  if (!content) return "";
  return (
    "## Optimizer Meta Skill\n" +
    "This is optimizer-side memory distilled from prior epoch transitions in " +
    "this environment. Use it to improve how you propose, merge, and rank " +
    "skill edits. Prefer it when the current evidence is ambiguous, but do " +
    "not force it if the current trajectories clearly contradict it.\n\n" +
    content
  );
}

/** How merge, ranking (and the final merge) put the block in front of their user message. */
export function withMetaSkillContext(metaSkillContent: string, user: string): string {
  const context = formatMetaSkillContext(metaSkillContent);
  return context ? `${context}\n\n${user}` : user;
}
