/**
 * Golden vectors for prompt building. tests/fixtures/golden/prompts.json was produced with python3 (3.11) from
 * the seed's `_truncate_context`, `_build_system` (template read with `open(..., encoding="utf-8").read()`, then
 * `.format(skill_section=...)`), `_build_user` and the `refinement` f-string. It holds `template` (the seed's
 * rollout_system.md text), `truncate` (name, context, maxChars?, output), `system` (skill, output),
 * `fixtureSkills` (file, the skill text embedded so CI needs no outside files, systemPrompt), `user` (input with
 * the camelCase option names, output) and `refinement` (previous, output).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildRefinementPrompt,
  buildSystemPrompt,
  buildUserPrompt,
  loadPromptTemplate,
  truncateContext,
  type UserPromptInput,
} from "@/lib/prompts";
import { mismatches, readGolden } from "../support/golden";

interface PromptsGolden {
  template: string;
  truncate: { name: string; context: string; maxChars?: number; output: string }[];
  system: { skill: string; output: string }[];
  fixtureSkills: { file: string; skill: string; systemPrompt: string }[];
  user: { input: UserPromptInput; output: string }[];
  refinement: { previous: string; output: string }[];
}

const golden = readGolden<PromptsGolden>("prompts.json");

describe("prompts match python3 golden vectors", () => {
  it("the project's template is the seed's template", () => {
    expect(loadPromptTemplate("rollout_system")).toBe(golden.template);
  });

  it.each(golden.truncate.filter((c) => !c.name.startsWith("random")))("truncateContext: $name", (c) => {
    expect(truncateContext(c.context, c.maxChars)).toBe(c.output);
  });

  it("truncateContext: random [DOC] contexts with small budgets", () => {
    const random = golden.truncate.filter((c) => c.name.startsWith("random"));
    expect(random.length).toBeGreaterThan(100);
    expect(mismatches(random, (c) => c.output, (c) => truncateContext(c.context, c.maxChars))).toEqual([]);
  });

  it("buildSystemPrompt", () => {
    expect(mismatches(golden.system, (c) => c.output, (c) => buildSystemPrompt(c.skill))).toEqual([]);
  });

  it.each(golden.fixtureSkills)("buildSystemPrompt for the fixture skill $file", (c) => {
    expect(buildSystemPrompt(c.skill)).toBe(c.systemPrompt);
    // The embedded copy keeps this test self-contained; when the shared fixture is present, check it still agrees.
    const sharedPath = join(process.cwd(), "..", "shared", "fixtures", "skills", c.file);
    if (existsSync(sharedPath)) expect(readFileSync(sharedPath, "utf8")).toBe(c.skill);
  });

  it("buildUserPrompt", () => {
    expect(golden.user.length).toBeGreaterThan(80);
    expect(mismatches(golden.user, (c) => c.output, (c) => buildUserPrompt(c.input))).toEqual([]);
  });

  it("buildRefinementPrompt", () => {
    expect(mismatches(golden.refinement, (c) => c.output, (c) => buildRefinementPrompt(c.previous))).toEqual([]);
  });
});
