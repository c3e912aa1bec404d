// The fake server as SkillOpt's optimizer, over real HTTP with the OpenAI client: requests built by
// lib/optimize/prompts from real rollouts, each role recognised, each reply read with the ports of upstream's
// parsers into the shapes upstream uses, and malformed replies chosen by request content.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPyDict, type PyJson, pyGet, pyTruthy } from "@/lib/export/python-json";
import { extractJson } from "@/lib/optimize/extract-json";
import { buildAnalystRequest } from "@/lib/optimize/prompts/analyst";
import { buildComparisonPairs, type ComparisonRow } from "@/lib/optimize/prompts/comparison";
import { buildFinalMergeRequest, buildMergeBatchRequest } from "@/lib/optimize/prompts/merge";
import { acceptFinalMergeReply, acceptMergeReply, normalisePatches, payloadEdits } from "@/lib/optimize/prompts/merge-tree";
import { buildMetaSkillRequest } from "@/lib/optimize/prompts/meta-skill";
import { buildRankingRequest } from "@/lib/optimize/prompts/ranking";
import type { OptimizerRequest } from "@/lib/optimize/prompts/request";
import { buildSlowUpdateRequest } from "@/lib/optimize/prompts/slow-update";
import { analystTrajectory } from "@/lib/optimize/prompts/trajectory";
import { rankAndSelect } from "@/lib/optimize/ranking";
import { buildSystemPrompt } from "@/lib/prompts";
import type { ItemResult } from "@/lib/runs";
import { isMalformedFor, optimizerRoleOf, type OptimizerRole } from "./fake-optimizer";
import { asFakeRequest, startFakeOptimizerSession, type FakeOptimizerSession } from "./fake-optimizer-session";
import { decoyRule, fixRule, optimizationDataset, ruleFor, topicOf } from "./fake-optimizer-target";

const SKILL = "# Answering\nRead every passage before answering.";
const META = "Prefer one rule per topic.";
const items = optimizationDataset({ size: 24, topics: 6, seed: 5, lureRate: 0 });
const topicRows = (rows: ItemResult[], topic: string, hard: number) => rows.filter((r) => r.hard === hard && topicOf(r.question) === topic);

let session: FakeOptimizerSession;
let rows: ItemResult[];
beforeAll(async () => {
  session = await startFakeOptimizerSession({ malformedOneIn: 0 });
  rows = await session.rollout(items, SKILL);
});
afterAll(() => session.close());

const analystRequest = (kind: "failure" | "success", minibatch: readonly ItemResult[], skill = SKILL) =>
  buildAnalystRequest({ kind, skill, editBudget: 4, stepBuffer: "", metaSkill: "", trajectories: minibatch.map((row) => analystTrajectory(row, buildSystemPrompt(skill))) })!;

/** Upstream's reflect: the parsed reply with its source_type, when it has a `patch`. */
async function reflect(kind: "failure" | "success", minibatch: readonly ItemResult[]): Promise<PyJson> {
  const parsed = extractJson(await session.ask(analystRequest(kind, minibatch)));
  expect(isPyDict(parsed) && "patch" in parsed).toBe(true);
  return { ...(parsed as Record<string, PyJson>), source_type: kind };
}

const contents = (patch: PyJson) => payloadEdits(patch).map((edit) => pyGet(edit as Record<string, PyJson>, "content", null));
const comparisonRows = (list: ItemResult[]) => new Map<string, ComparisonRow>(list.map((row) => [row.itemId, row]));

describe("fake optimizer: every role, in its schema", () => {
  it("plays each optimizer role, told apart by the system prompt, with replies upstream's parsers accept", async () => {
    session.server.resetStats();
    const failed = (topic: string) => topicRows(rows, topic, 0);
    const raw = [
      await reflect("failure", failed("t1")),
      await reflect("failure", [...failed("t2").slice(0, 2), ...failed("t4").slice(0, 2)]),
      await reflect("failure", [...failed("t4").slice(2), ...failed("t5").slice(0, 2)]),
      await reflect("success", topicRows(rows, "t0", 1)),
      await reflect("success", topicRows(rows, "t3", 1)),
    ];
    const { failure, success } = normalisePatches(raw);
    expect(failure.map(contents)).toEqual([[fixRule("t1")], [fixRule("t2"), fixRule("t4")], [fixRule("t4"), fixRule("t5")]]);
    expect(success.map(contents)).toEqual([[fixRule("t0")], [fixRule("t3")]]);

    // Merges: de-duplicated by content, supports summed, the tree's source_type; the meta skill block in front.
    const mergeReply = async (request: OptimizerRequest) => acceptMergeReply(extractJson(await session.ask(request)), 1)!;
    const failureMerged = await mergeReply(buildMergeBatchRequest({ group: "failure", skill: SKILL, patches: failure, level: 1, metaSkill: META }));
    expect(payloadEdits(failureMerged)).toEqual([["t1", 4], ["t2", 4], ["t4", 8], ["t5", 4]].map(([topic, support]) => (
      { op: "append", content: fixRule(String(topic)), support_count: support, source_type: "failure", merge_level: 1 })));
    const successMerged = await mergeReply(buildMergeBatchRequest({ group: "success", skill: SKILL, patches: success, level: 1, metaSkill: "" }));
    expect(payloadEdits(successMerged)).toEqual([fixRule("t0"), fixRule("t3")].map((content) => ({ op: "append", content, support_count: 4, source_type: "success", merge_level: 1 })));
    const final = acceptFinalMergeReply(extractJson(await session.ask(buildFinalMergeRequest({ skill: SKILL, failureMerged, successMerged, metaSkill: META }))))!;
    expect(contents(final)).toEqual(["t1", "t2", "t4", "t5", "t0", "t3"].map(fixRule));
    expect(payloadEdits(final).map((e) => pyGet(e as Record<string, PyJson>, "source_type", null))).toEqual([...Array(4).fill("failure"), "success", "success"]);

    // Ranking: by support (t4's 8 first), through upstream's selection rather than its truncation fallback.
    const ranked = rankAndSelect(final, 2, await session.ask(buildRankingRequest({ skill: SKILL, edits: payloadEdits(final), maxEdits: 2, metaSkill: META })!)) as Record<string, PyJson>;
    expect(ranked.ranking_details).toMatchObject({ selected_indices: [2, 0] });
    expect(contents(ranked)).toEqual([fixRule("t4"), fixRule("t1")]);

    // Slow update and meta skill read the comparison (here a decoy broke t0) and return their content fields.
    const decoyed = await session.rollout(items, `${SKILL}\n${decoyRule("t0")}`);
    const pairs = buildComparisonPairs(items, comparisonRows(rows), comparisonRows(decoyed));
    const slow = extractJson(await session.ask(buildSlowUpdateRequest({ previousSkill: SKILL, currentSkill: `${SKILL}\n${decoyRule("t0")}`, previousGuidance: "", pairs }))) as Record<string, PyJson>;
    expect(slow.slow_update_content).toEqual(expect.stringContaining("Re-check your reading for topics t0"));
    expect(slow.reasoning).toContain("0 improved, 4 regressed");
    for (let k = 0; k < 6; k++) expect(ruleFor(String(slow.slow_update_content), `t${k}`)).toBeUndefined();
    const meta = extractJson(await session.ask(buildMetaSkillRequest({ previousSkill: SKILL, currentSkill: SKILL, previousMetaSkill: META, pairs }))) as Record<string, PyJson>;
    expect(meta.meta_skill_content).toEqual(expect.stringContaining("one rule per topic"));

    expect(session.server.requests.map(optimizerRoleOf)).toEqual([
      "analyst_error", "analyst_error", "analyst_error", "analyst_success", "analyst_success", "merge_failure", "merge_success", "merge_final", "ranking",
      ...Array(24).fill(undefined), "slow_update", "meta_skill",
    ]);
  });
});

describe("fake optimizer: malformed replies", () => {
  /** 28 different requests per role (the skill text varies), the inputs realistic. */
  async function requestsPerRole(): Promise<{ role: OptimizerRole; request: OptimizerRequest; budget?: number; patch?: PyJson }[]> {
    const { failure, success } = normalisePatches([await reflect("failure", topicRows(rows, "t1", 0)), await reflect("failure", topicRows(rows, "t2", 0)), await reflect("success", topicRows(rows, "t0", 1))]);
    const merged = { reasoning: "merged", edits: [...payloadEdits(failure[0]), ...payloadEdits(failure[1]), ...payloadEdits(success[0])] };
    const pairs = buildComparisonPairs(items, comparisonRows(rows), comparisonRows(rows));
    return Array.from({ length: 28 }, (_, n) => {
      const skill = `${SKILL}\nRevision ${n}.`;
      return [
        { role: "analyst_error" as const, request: analystRequest("failure", topicRows(rows, "t1", 0), skill) },
        { role: "analyst_success" as const, request: analystRequest("success", topicRows(rows, "t0", 1), skill) },
        { role: "merge_failure" as const, request: buildMergeBatchRequest({ group: "failure", skill, patches: failure, level: 1, metaSkill: "" }) },
        { role: "merge_success" as const, request: buildMergeBatchRequest({ group: "success", skill, patches: [success[0]!, success[0]!], level: 2, metaSkill: "" }) },
        { role: "merge_final" as const, request: buildFinalMergeRequest({ skill, failureMerged: failure[0]!, successMerged: success[0]!, metaSkill: "" }) },
        { role: "ranking" as const, request: buildRankingRequest({ skill, edits: merged.edits, maxEdits: 2, metaSkill: "" })!, budget: 2, patch: merged },
        { role: "slow_update" as const, request: buildSlowUpdateRequest({ previousSkill: skill, currentSkill: SKILL, previousGuidance: "", pairs }) },
        { role: "meta_skill" as const, request: buildMetaSkillRequest({ previousSkill: skill, currentSkill: SKILL, previousMetaSkill: "", pairs }) },
      ];
    }).flat();
  }

  /** Whether upstream's reading of the reply gets what it asked for (else it takes its fallback or drops the reply). */
  function usable(role: OptimizerRole, reply: string, case_: { budget?: number; patch?: PyJson }): boolean {
    const parsed = extractJson(reply);
    const field = (key: string) => isPyDict(parsed) && pyTruthy(pyGet(parsed, key, null));
    if (role === "analyst_error" || role === "analyst_success") {
      const source_type = role === "analyst_error" ? "failure" : "success";
      const { failure, success } = isPyDict(parsed) && "patch" in parsed ? normalisePatches([{ ...parsed, source_type }]) : { failure: [], success: [] };
      return failure.length + success.length === 1;
    }
    if (role === "merge_failure" || role === "merge_success") return acceptMergeReply(parsed ?? undefined, 1) !== null;
    if (role === "merge_final") return acceptFinalMergeReply(parsed ?? undefined) !== null;
    if (role === "ranking") return "ranking_details" in (rankAndSelect(case_.patch!, case_.budget!, reply) as object);
    return field(role === "slow_update" ? "slow_update_content" : "meta_skill_content");
  }

  it("answers about 1 in 7 requests malformed, by content, every one rejected by upstream's checks, none when turned off", async () => {
    const cases = await requestsPerRole();
    session.setOptions({});
    const replies = await Promise.all(cases.map((c) => session.ask(c.request)));
    const again = (await Promise.all([...cases].reverse().map((c) => session.ask(c.request)))).reverse();
    expect(again).toEqual(replies);
    const malformed = cases.map((c) => isMalformedFor(asFakeRequest(c.request)));
    cases.forEach((c, i) => expect({ role: c.role, usable: usable(c.role, replies[i]!, c) }).toEqual({ role: c.role, usable: !malformed[i] }));
    const share = malformed.filter(Boolean).length / cases.length;
    expect(share).toBeGreaterThan(0.08);
    expect(share).toBeLessThan(0.22);
    for (const role of new Set(cases.map((c) => c.role))) expect(cases.some((c, i) => c.role === role && malformed[i])).toBe(true);
    expect(replies.some((reply) => reply.startsWith("Here is the result.\n```json\n"))).toBe(true);

    session.setOptions({ malformedOneIn: 0 });
    const clean = await Promise.all(cases.map((c) => session.ask(c.request)));
    cases.forEach((c, i) => expect({ role: c.role, usable: usable(c.role, clean[i]!, c) }).toEqual({ role: c.role, usable: true }));
  });
});
