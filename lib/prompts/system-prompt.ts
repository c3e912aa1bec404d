import { pyStrip } from "../text/python";
import { formatTemplate } from "./format-template";
import { loadPromptTemplate } from "./load-template";

/** The seed's `_build_system`: the rollout template with the stripped skill as a "## Skill" section, if any. */
export function buildSystemPrompt(skillContent: string): string {
  const skill = pyStrip(skillContent);
  const skillSection = skill ? `## Skill\n${skill}\n\n` : "";
  return formatTemplate(loadPromptTemplate("rollout_system"), { skill_section: skillSection });
}
