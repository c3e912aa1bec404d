/**
 * The per-minibatch analyst request. Port of the patch-mode user message of `run_error_analyst_minibatch` and
 * `run_success_analyst_minibatch` (skillopt/gradient/reflect.py), with the SearchQA system prompts
 * (skillopt/envs/searchqa/prompts/analyst_error.md, analyst_success.md, picked by `EnvAdapter.reflect` in
 * skillopt/envs/base.py).
 */
import { pyStrip } from "../../text/python";
import { formatMetaSkillContext } from "./meta-skill-context";
import { optimizerRequest, type OptimizerRequest, skillOptTemplate } from "./request";
import { type AnalystTrajectory, formatMinibatchTrajectories } from "./trajectory";

export interface AnalystRequestInput {
  /** failure: a minibatch of failed rows (error analyst); success: of successful rows. */
  kind: "failure" | "success";
  skill: string;
  /** L, the adapter's edit budget upstream passes to every minibatch. */
  editBudget: number;
  /** The formatted step buffer (`formatStepBuffer`), "" on the epoch's first step. */
  stepBuffer: string;
  /** The previous epoch's meta skill content, "" when there is none. */
  metaSkill: string;
  /** The minibatch's rows, in minibatch order. */
  trajectories: readonly AnalystTrajectory[];
}

/**
 * The analyst request for one minibatch, or null where upstream makes no call (none of the minibatch's rows
 * has a saved conversation).
 */
export function buildAnalystRequest(input: AnalystRequestInput): OptimizerRequest | null {
  const trajectoriesText = formatMinibatchTrajectories(input.trajectories);
  if (!pyStrip(trajectoriesText)) return null;
  let user = `## Current Skill\n${input.skill}\n\n`;
  user += `## Edits Budget\nProduce at most L=${input.editBudget} edits.\n\n`;
  if (pyStrip(input.stepBuffer)) user += `## Previous Steps in This Epoch\n${input.stepBuffer}\n\n`;
  const metaContext = formatMetaSkillContext(input.metaSkill);
  if (metaContext) user += metaContext + "\n\n";
  const heading = input.kind === "failure" ? "Failed Trajectories" : "Successful Trajectories";
  user += `## ${heading} (${input.trajectories.length} total)\n${trajectoriesText}`;
  const system = skillOptTemplate(input.kind === "failure" ? "analyst_error" : "analyst_success");
  return optimizerRequest("analyst", system, user);
}
