/**
 * The slow-update request at an epoch boundary. Port of the request half of `run_slow_update`
 * (skillopt/optimizer/slow_update.py) with prompts/slow_update.md.
 */
import { pyStrip } from "../../text/python";
import { type ComparisonPair, formatComparisonText } from "./comparison";
import { optimizerRequest, type OptimizerRequest, skillOptTemplate } from "./request";

export interface SlowUpdateInput {
  /** The skill of the previous epoch's last step. */
  previousSkill: string;
  /** The current skill (after this epoch's steps). */
  currentSkill: string;
  /** The guidance inside the current skill's slow-update field ("" when empty or absent). */
  previousGuidance: string;
  pairs: readonly ComparisonPair[];
}

export function buildSlowUpdateRequest(input: SlowUpdateInput): OptimizerRequest {
  const guidance = pyStrip(input.previousGuidance) || "(No previous guidance — this is the first slow update.)";
  // "same 20 tasks" is upstream's wording whatever slow_update_samples is.
  const user =
    `## Previous Epoch's Skill\n${input.previousSkill}\n\n` +
    `## Current Epoch's Skill\n${input.currentSkill}\n\n` +
    `## Previous Slow Update Guidance\n` +
    `The following guidance was active during the current epoch. ` +
    `Reflect on its effectiveness before writing the new version.\n\n` +
    `${guidance}\n\n` +
    `## Longitudinal Comparison (same 20 tasks, two skill versions)\n` +
    formatComparisonText(input.pairs);
  return optimizerRequest("slow_update", skillOptTemplate("slow_update"), user);
}
