/**
 * What every optimiser stage sends: upstream's `chat_optimizer(system=..., user=...)`
 * (skillopt/model/__init__.py, openai_compatible_backend.py `chat_optimizer`), i.e. a system message then a
 * user message, with the stage name and completion cap the call site passes.
 */
import type { ChatMessage } from "../../model/types";
import { loadPromptTemplate } from "../../prompts/load-template";

/** The `stage=` upstream passes with each optimizer call (its token accounting groups by it). */
export type OptimizerStage = "analyst" | "merge" | "ranking" | "slow_update" | "meta_skill";

export interface OptimizerRequest {
  stage: OptimizerStage;
  messages: [ChatMessage & { role: "system" }, ChatMessage & { role: "user" }];
  /** Upstream's `max_completion_tokens=` for the stage (patch mode: always 16384). */
  maxCompletionTokens: number;
}

/** Upstream's cap for every seed-mode optimizer call (64000 is only for the full-rewrite mode). */
export const OPTIMIZER_MAX_COMPLETION_TOKENS = 16384;

export function optimizerRequest(stage: OptimizerStage, system: string, user: string): OptimizerRequest {
  return {
    stage,
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
    maxCompletionTokens: OPTIMIZER_MAX_COMPLETION_TOKENS,
  };
}

/** The upstream templates seed mode uses, as copied into prompts/skillopt/ (used verbatim, never formatted). */
export type SkillOptTemplate =
  | "analyst_error"
  | "analyst_success"
  | "merge_failure"
  | "merge_success"
  | "merge_final"
  | "ranking"
  | "slow_update"
  | "meta_skill";

/** Upstream's `load_prompt(name, env="searchqa")`: the SearchQA analyst prompts, the generic others. */
export function skillOptTemplate(name: SkillOptTemplate): string {
  return loadPromptTemplate(`skillopt/${name}`);
}
