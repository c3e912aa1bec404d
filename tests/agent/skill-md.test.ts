// The SKILL.md and task.md an agent run writes must be the seed's, byte for byte: the two golden files are
// the seed's own output for the trained fixture skill and for a blank skill.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AGENT_PROMPT, buildAgentSkillMd, buildTaskText, renderSkillMd } from "@/lib/agent";

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8");

describe("buildAgentSkillMd (the seed's _build_codex_skill)", () => {
  it("renders the trained skill byte for byte as the seed", () => {
    expect(buildAgentSkillMd(fixture("skills/searchqa-trained.md"))).toBe(fixture("seed/SKILL.md.trained-skill"));
  });

  it("renders a blank skill (empty or whitespace only) with the fixed sentence", () => {
    const blank = fixture("seed/SKILL.md.blank-skill");
    expect(buildAgentSkillMd("")).toBe(blank);
    expect(buildAgentSkillMd(" \n\t\n")).toBe(blank);
  });

  it("strips the skill as Python's str.strip does, keeping inner blank lines", () => {
    const rendered = buildAgentSkillMd("\n\n  # Rules\n\n- one\n\n\n");
    expect(rendered.endsWith("## Dynamic Guidance\n\n# Rules\n\n- one\n")).toBe(true);
  });

  it("quotes the front matter values", () => {
    const rendered = renderSkillMd("x", { name: "n", description: 'says "hi"', preamble: "P" });
    expect(rendered).toBe('---\nname: "n"\ndescription: "says \\"hi\\""\n---\n\n# ReflACT Target Skill\n\nP\n\n## Dynamic Guidance\n\nx\n');
  });
});

describe("buildTaskText and the agent prompt", () => {
  it("is the user prompt on the first turn, and adds the previous attempt on later turns", () => {
    expect(buildTaskText("## Context\nc\n\n## Question\nq", "")).toBe("## Context\nc\n\n## Question\nq");
    expect(buildTaskText("U", "<answer>Rome</answer>")).toBe(
      "U\n\n## Previous Attempt\n<answer>Rome</answer>\n\nReview it against the same context and question. If needed, correct it.",
    );
  });

  it("asks the agent exactly what the seed asks", () => {
    expect(AGENT_PROMPT).toBe(
      "Use the `skillopt-target` skill available in this workspace.\nRead `task.md` and answer the SearchQA question.\nReturn the final answer inside <answer>...</answer>.",
    );
  });
});
