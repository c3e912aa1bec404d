/**
 * The meta-skill request at an epoch boundary. Port of the request half of `run_meta_skill`
 * (skillopt/optimizer/meta_skill.py) with prompts/meta_skill.md.
 */
import { pyStrip } from "../../text/python";
import { type ComparisonPair, formatComparisonText } from "./comparison";
import { optimizerRequest, type OptimizerRequest, skillOptTemplate } from "./request";

export interface MetaSkillInput {
  /** The skill of the previous epoch's last step. */
  previousSkill: string;
  /** The skill of this epoch's last step (before the epoch-end slow update). */
  currentSkill: string;
  /** The previous epoch's meta skill content ("" when there is none). */
  previousMetaSkill: string;
  /** The slow update's pairs when it ran this epoch, else the meta skill's own sample ([] when none). */
  pairs: readonly ComparisonPair[];
}

export function buildMetaSkillRequest(input: MetaSkillInput): OptimizerRequest {
  const previous =
    pyStrip(input.previousMetaSkill) || "(No previous optimizer meta skill — this is the first update.)";
  const user =
    `## Previous Epoch Last-Step Skill\n${input.previousSkill}\n\n` +
    `## Current Epoch Last-Step Skill\n${input.currentSkill}\n\n` +
    `## Previous Optimizer Meta Skill\n` +
    `The following optimizer memory was available during the current epoch. ` +
    `Reflect on whether it improved or harmed the quality of edits.\n\n` +
    `${previous}\n\n` +
    `## Longitudinal Comparison (same tasks, two last-step skills)\n` +
    formatComparisonText(input.pairs);
  return optimizerRequest("meta_skill", skillOptTemplate("meta_skill"), user);
}
