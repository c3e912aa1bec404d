// The slow-update field helpers and the slow-update / meta-skill reply rules, against values printed by upstream's own
// functions (tests/optimize/golden/record_replies.py → tests/fixtures/golden/optimize-replies.json).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseMetaSkillReply, parseSlowUpdateReply } from "@/lib/optimize/loop/replies";
import { extractSlowUpdateField, injectEmptySlowUpdateField, replaceSlowUpdateField } from "@/lib/optimize/slow-update-field";

const golden = JSON.parse(readFileSync(new URL("../fixtures/golden/optimize-replies.json", import.meta.url), "utf8")) as {
  slow_update_field: { skill: string; inject: string; extract: string; replace: Record<string, string> }[];
  replies: { reply: string; slow: { reasoning: string; slow_update_content: string } | null; meta: { reasoning: string; meta_skill_content: string } | null }[];
};

describe("slow-update field (upstream slow_update.py)", () => {
  it.each(golden.slow_update_field.map((c, i) => [i, c] as const))("skill %i: inject, extract and replace as upstream", (_, c) => {
    expect(injectEmptySlowUpdateField(c.skill)).toBe(c.inject);
    expect(extractSlowUpdateField(c.skill)).toBe(c.extract);
    for (const [content, expected] of Object.entries(c.replace)) expect(replaceSlowUpdateField(c.skill, content)).toBe(expected);
  });
});

describe("slow-update and meta-skill replies (run_slow_update, run_meta_skill)", () => {
  it.each(golden.replies.map((c) => [c.reply, c] as const))("%s", (_, c) => {
    const slow = parseSlowUpdateReply(c.reply);
    expect(slow && { reasoning: slow.reasoning, slow_update_content: slow.content }).toEqual(c.slow);
    const meta = parseMetaSkillReply(c.reply);
    expect(meta && { reasoning: meta.reasoning, meta_skill_content: meta.content }).toEqual(c.meta);
  });

  it("a failed call (no reply) gives nothing, as upstream's except path", () => {
    expect(parseSlowUpdateReply(undefined)).toBeNull();
    expect(parseMetaSkillReply(undefined)).toBeNull();
  });
});
