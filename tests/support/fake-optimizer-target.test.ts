// The fake optimisation world's target side over real HTTP: the skill-sensitive policy, its dataset, and the
// scripted analyst's edits (built from real rollouts with lib/optimize/prompts, applied with upstream's edit
// semantics) moving scores up, leaving them tied, or making another topic regress.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDatasetText } from "@/lib/datasets";
import type { DatasetItem } from "@/lib/datasets/types";
import type { PyJson } from "@/lib/export/python-json";
import { applyPatchWithReport } from "@/lib/optimize/edits";
import { extractJson } from "@/lib/optimize/extract-json";
import { buildAnalystRequest } from "@/lib/optimize/prompts/analyst";
import { analystTrajectory } from "@/lib/optimize/prompts/trajectory";
import { buildSystemPrompt } from "@/lib/prompts";
import type { ItemResult } from "@/lib/runs";
import { optimizerRoleOf } from "./fake-optimizer";
import { accuracy, correctIds, startFakeOptimizerSession, type FakeOptimizerSession } from "./fake-optimizer-session";
import { datasetJsonl, decoyRule, fixRule, lureOf, optimizationDataset, topicOf, topicRule } from "./fake-optimizer-target";

const SKILL = "# Answering\nRead every passage before answering.";
const SKILL_WITH_HEADING = `${SKILL}\n\n## Topic rules\n- Prefer the passage the rules name.`;
const items = optimizationDataset({ size: 24, topics: 6, seed: 5, lureRate: 0 });
const topicItems = (list: readonly DatasetItem[], topic: string) => list.filter((item) => topicOf(item.question) === topic).map((item) => item.id);

let session: FakeOptimizerSession;
beforeAll(async () => {
  session = await startFakeOptimizerSession({ malformedOneIn: 0 });
});
afterAll(() => session.close());

/** The analyst's parsed reply to the minibatch of `rows` (rolled out under `skill`). */
async function analyse(kind: "failure" | "success", skill: string, rows: readonly ItemResult[], editBudget = 4) {
  const request = buildAnalystRequest({
    kind, skill, editBudget, stepBuffer: "", metaSkill: "",
    trajectories: rows.map((row) => analystTrajectory(row, buildSystemPrompt(skill))),
  });
  const reply = extractJson(await session.ask(request!)) as { batch_size: number; patch: { edits: PyJson[] } };
  return { reply, edits: reply.patch.edits };
}

const failing = (rows: readonly ItemResult[], topic: string) => rows.filter((row) => row.hard === 0 && topicOf(row.question) === topic);

describe("fake optimisation world: the target policy and its dataset", () => {
  it("answers exactly the baseline topics correctly when the skill has no rules", async () => {
    session.server.resetStats();
    const rows = await session.rollout(items, SKILL);
    expect(correctIds(rows)).toEqual([...topicItems(items, "t0"), ...topicItems(items, "t3")].sort());
    expect(accuracy(rows)).toBeCloseTo(8 / 24);
    expect(session.server.requests.map(optimizerRoleOf)).toEqual(Array(24).fill(undefined));
    const t1 = rows.find((row) => topicOf(row.question) === "t1")!;
    expect(t1.response).toMatch(/^Topic t1: reading the first passage\.\n<answer>.+<\/answer>$/);
    expect(t1.failReason).toMatch(/^EM=0: predicted '/);
  });

  it("builds items `dataset import` reads back, deterministic per seed, with lures only on non-baseline topics", () => {
    expect(parseDatasetText(datasetJsonl(items), { fileName: "opt.jsonl" })).toEqual(items);
    expect(optimizationDataset({ size: 24, topics: 6, seed: 5, lureRate: 0 })).toEqual(items);
    expect(optimizationDataset({ size: 24, topics: 6, seed: 6, lureRate: 0 })).not.toEqual(items);
    expect(items[7]).toMatchObject({ id: "opt-0007", question: "[topic: t1] Which entry answers clue 7?", metadata: { topic: "t1" } });
    const lured = optimizationDataset({ size: 24, topics: 6, seed: 5, lureRate: 1 });
    for (const item of lured) {
      const topic = topicOf(item.question)!;
      expect(lureOf(item.question)).toEqual(["t0", "t3"].includes(topic) ? undefined : expect.stringMatching(/^t[03]$/));
    }
  });
});

describe("fake optimisation world: the analyst's edits move scores", () => {
  it("fixes a failing topic with a rule read from its trajectories (append), within the budget", async () => {
    const before = await session.rollout(items, SKILL);
    const { reply, edits } = await analyse("failure", SKILL, failing(before, "t1"));
    expect(reply.batch_size).toBe(4);
    expect(edits).toEqual([{ op: "append", content: fixRule("t1") }]);
    const { skill, reports } = applyPatchWithReport(SKILL, reply.patch as PyJson);
    expect(reports.map((r) => r.status)).toEqual(["applied_append"]);
    const after = await session.rollout(items, skill);
    expect(correctIds(after)).toEqual([...correctIds(before), ...topicItems(items, "t1")].sort());
    expect(accuracy(after)).toBeGreaterThan(accuracy(before));

    // Two failing topics and a budget of one: only the first trajectory's topic gets its rule.
    const mixed = [...failing(before, "t2").slice(0, 2), ...failing(before, "t4").slice(0, 2)];
    expect((await analyse("failure", SKILL, mixed, 1)).edits).toEqual([{ op: "append", content: fixRule("t2") }]);
    expect((await analyse("failure", SKILL, mixed, 4)).edits).toEqual([{ op: "append", content: fixRule("t2") }, { op: "append", content: fixRule("t4") }]);
  });

  it("inserts after the skill's `## Topic rules` heading when it has one", async () => {
    const before = await session.rollout(items, SKILL_WITH_HEADING);
    const { reply, edits } = await analyse("failure", SKILL_WITH_HEADING, failing(before, "t5"));
    expect(edits).toEqual([{ op: "insert_after", target: "## Topic rules", content: fixRule("t5") }]);
    const { skill, reports } = applyPatchWithReport(SKILL_WITH_HEADING, reply.patch as PyJson);
    expect(reports.map((r) => r.status)).toEqual(["applied_insert_after"]);
    expect(skill).toContain(`## Topic rules\n\n${fixRule("t5")}\n- Prefer`); // upstream puts a blank line before inserted content
    expect(correctIds(await session.rollout(items, skill))).toEqual([...correctIds(before), ...topicItems(items, "t5")].sort());
  });

  it("is lured into a decoy that breaks a baseline topic, and repairs it with a replace", async () => {
    const lured = optimizationDataset({ size: 24, topics: 6, seed: 5, lureRate: 1 });
    const before = await session.rollout(lured, SKILL);
    const rows = failing(before, "t1");
    const lureTopics = [...new Set(rows.map((row) => lureOf(row.question)!))];
    const { reply, edits } = await analyse("failure", SKILL, rows);
    expect(edits).toEqual([{ op: "append", content: fixRule("t1") }, ...lureTopics.map((t) => ({ op: "append", content: decoyRule(t) }))]);
    expect(decoyRule("t0")).toBe(topicRule("t0", "third"));

    // The whole patch: t1 improves, every lured baseline topic regresses.
    const patched = applyPatchWithReport(SKILL, reply.patch as PyJson).skill;
    const after = await session.rollout(lured, patched);
    for (const id of topicItems(lured, "t1")) expect(correctIds(after)).toContain(id);
    for (const topic of lureTopics) for (const id of topicItems(lured, topic)) expect(correctIds(after)).not.toContain(id);
    // The decoy alone: a pure regression.
    const decoyOnly = applyPatchWithReport(SKILL, { edits: [edits[1]!] }).skill;
    const regressed = await session.rollout(lured, decoyOnly);
    expect(accuracy(regressed)).toBeLessThan(accuracy(before));
    expect(correctIds(before).filter((id) => !correctIds(regressed).includes(id))).toEqual(topicItems(lured, lureTopics[0]!));

    // Shown the broken topic's failures, the analyst replaces the decoy with the right rule.
    const repair = await analyse("failure", decoyOnly, failing(regressed, lureTopics[0]!));
    expect(repair.edits).toEqual([{ op: "replace", target: decoyRule(lureTopics[0]!), content: fixRule(lureTopics[0]!) }]);
    const repaired = applyPatchWithReport(decoyOnly, repair.reply.patch as PyJson);
    expect(repaired.reports.map((r) => r.status)).toEqual(["applied_replace"]);
    expect(correctIds(await session.rollout(lured, repaired.skill))).toEqual(correctIds(before));
  });

  it("gives ties: a rule for a topic absent from the items, and the success analyst's reinforcing rule", async () => {
    const withoutT4 = items.filter((item) => topicOf(item.question) !== "t4");
    const before = await session.rollout(withoutT4, SKILL);
    const absent = applyPatchWithReport(SKILL, { edits: [{ op: "append", content: fixRule("t4") }] }).skill;
    expect(correctIds(await session.rollout(withoutT4, absent))).toEqual(correctIds(before));

    const successes = before.filter((row) => row.hard === 1 && topicOf(row.question) === "t3");
    const { reply, edits } = await analyse("success", SKILL, successes);
    expect(reply).toMatchObject({ batch_size: 4, success_patterns: expect.arrayContaining([expect.stringContaining("[topic: t3]")]) });
    expect(edits).toEqual([{ op: "append", content: fixRule("t3") }]);
    const reinforced = applyPatchWithReport(SKILL, reply.patch as PyJson).skill;
    expect(correctIds(await session.rollout(withoutT4, reinforced))).toEqual(correctIds(before));
    // Once the topic has its rule, success analysis proposes nothing.
    expect((await analyse("success", reinforced, successes)).edits).toEqual([]);
  });
});
