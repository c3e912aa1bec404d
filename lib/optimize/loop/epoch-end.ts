/**
 * The epoch boundary: the slow update (trainer.py "SLOW UPDATE (end of epoch)", optimizer/slow_update.py) and the meta
 * skill (trainer.py "META SKILL", optimizer/meta_skill.py), with upstream's sampling, pairing and acceptance rules.
 */
import type { ItemResult } from "../../runs/types";
import { skillHash } from "../gate";
import { buildComparisonPairs, type ComparisonPair, type ComparisonRow } from "../prompts/comparison";
import { buildMetaSkillRequest } from "../prompts/meta-skill";
import { buildSlowUpdateRequest } from "../prompts/slow-update";
import { pyShuffled } from "../py-random";
import { extractSlowUpdateField, injectEmptySlowUpdateField, replaceSlowUpdateField } from "../slow-update-field";
import { currentPairing, decideGate, gateRecord, valScore } from "./evaluate";
import { metaSkillKey, slowUpdateKey } from "./keys";
import { parseMetaSkillReply, parseSlowUpdateReply } from "./replies";
import { stateSummary, type LoopContext, type LoopState } from "./state";

const pad2 = (n: number) => String(n).padStart(2, "0");

function comparisonRow(row: ItemResult): ComparisonRow {
  return { hard: row.hard, soft: row.soft, predictedAnswer: row.predictedAnswer, failReason: row.failReason, conversation: row.agentOk ? row.conversation : null };
}

function rowsById(rows: readonly ItemResult[]): Map<string, ComparisonRow> {
  return new Map(rows.map((row) => [row.itemId, comparisonRow(row)]));
}

function keepByPolicy(pairs: readonly ComparisonPair[], policy: "mixed" | "changed" | "unchanged"): ComparisonPair[] {
  if (policy === "mixed") return [...pairs];
  const keep = policy === "changed" ? ["improved", "regressed"] : ["persistent_fail", "stable_success"];
  return pairs.filter((pair) => keep.includes(pair.category));
}

/** The skill saved for the previous epoch's last step (skills/skill_vNNNN.md, as possibly overwritten since). */
function previousEpochSkill(state: LoopState, epoch: number): string {
  const records = state.history.filter((entry) => entry.epoch === epoch - 1);
  const last = records[records.length - 1];
  if (!last) throw new Error(`epoch ${epoch - 1} has no recorded step`);
  return state.savedSkills.get(last.step) ?? "";
}

/**
 * `_build_longitudinal_pairs`: a train sample rolled out with both skills and paired by item. The "changed" policy tops
 * up from the rest of the train split, one item at a time, as upstream does.
 */
async function longitudinalPairs(
  ctx: LoopContext,
  stageKey: string,
  previousSkill: string,
  currentSkill: string,
  seed: number,
): Promise<{ pairs: ComparisonPair[]; prevHard: number; currHard: number }> {
  const n = ctx.settings.optimizer.slow_update_samples;
  const policy = ctx.settings.optimizer.longitudinal_pair_policy;
  const items = pyShuffled(ctx.split.train, seed).slice(0, n);
  const [prev, curr] = [
    await ctx.io.rollout({ key: `${stageKey}/prev`, skill: previousSkill, split: "train", itemIds: items }),
    await ctx.io.rollout({ key: `${stageKey}/curr`, skill: currentSkill, split: "train", itemIds: items }),
  ];
  const questions = new Map(prev.rows.map((row) => [row.itemId, row.question]));
  const all = buildComparisonPairs(items.map((id) => ({ id, question: questions.get(id) ?? "" })), rowsById(prev.rows), rowsById(curr.rows));
  let pairs = keepByPolicy(all, policy);
  const mean = (rows: readonly ItemResult[]) => (rows.length ? rows.reduce((sum, row) => sum + row.hard, 0) / rows.length : 0);
  if (policy === "changed" && pairs.length < n) {
    const seen = new Set(all.map((pair) => pair.id));
    const candidates = pyShuffled(ctx.split.train, seed).filter((id) => !seen.has(id));
    for (const id of candidates) {
      if (pairs.length >= n) break;
      const p = await ctx.io.rollout({ key: `${stageKey}/topup/${id}/prev`, skill: previousSkill, split: "train", itemIds: [id] });
      const c = await ctx.io.rollout({ key: `${stageKey}/topup/${id}/curr`, skill: currentSkill, split: "train", itemIds: [id] });
      pairs.push(...keepByPolicy(buildComparisonPairs([{ id, question: p.rows[0]?.question ?? "" }], rowsById(p.rows), rowsById(c.rows)), policy));
    }
    pairs = pairs.slice(0, n);
  }
  return { pairs, prevHard: mean(prev.rows), currHard: mean(curr.rows) };
}

/** Runs the slow update for `epoch`; returns the comparison pairs it built (the meta skill reuses them), or null. */
export async function runSlowUpdate(ctx: LoopContext, state: LoopState, epoch: number): Promise<ComparisonPair[] | null> {
  const { io, settings } = ctx;
  const key = slowUpdateKey(epoch);
  const base = { key, kind: "slow_update" as const, epoch, globalStep: state.globalStep };
  if (epoch === 1) {
    const parentSkill = state.currentSkill;
    state.currentSkill = injectEmptySlowUpdateField(state.currentSkill);
    state.currentOrigin = `slow_update_placeholder_epoch_${pad2(epoch)}`;
    state.savedSkills.set(state.globalStep, state.currentSkill);
    await io.skillVersion(state.currentSkill, { parentSkill, stageKey: key });
    io.log(`[optimize] epoch ${epoch} slow update: empty placeholder injected`);
    await io.saveStage({ ...base, action: "inject_placeholder", candidateSkill: state.currentSkill, parentSkill, record: { action: "inject_placeholder", epoch }, currentSkill: state.currentSkill, bestSkill: state.bestSkill, state: stateSummary(state) });
    return null;
  }
  const started = performance.now();
  const previousSkill = previousEpochSkill(state, epoch);
  const { pairs, prevHard, currHard } = await longitudinalPairs(ctx, key, previousSkill, state.currentSkill, settings.train.seed + epoch * 2000);
  const request = buildSlowUpdateRequest({ previousSkill, currentSkill: state.currentSkill, previousGuidance: extractSlowUpdateField(state.currentSkill), pairs });
  const reply = await io.callOptimizer({ key: `${key}/slow_update`, stageKey: key, request, itemIds: pairs.map((pair) => pair.id) });
  const parsed = parseSlowUpdateReply(reply);
  const timeS = Number(((performance.now() - started) / 1000).toFixed(1));
  const parentSkill = state.currentSkill;
  let record: Record<string, unknown>;
  let gate: Record<string, unknown> | undefined;
  let candidateSkill: string | undefined;
  if (!parsed) {
    record = { action: "no_content", time_s: timeS };
    io.log(`[optimize] epoch ${epoch} slow update: no guidance produced`);
  } else {
    candidateSkill = replaceSlowUpdateField(state.currentSkill, parsed.content);
    record = {
      reasoning: parsed.reasoning, slow_update_content: parsed.content, time_s: timeS, prev_hard: prevHard, curr_hard: currHard,
      candidate_hash: skillHash(candidateSkill), update_origin: "slow_update_momentum",
      update_target: "Address longitudinal regressions and persistent failures observed across adjacent epochs.",
    };
    if (settings.optimizer.slow_update_gate_with_selection) {
      const origin = { parentSkill, stageKey: key };
      const candidate = await valScore(ctx, state, candidateSkill, `${key}/selection`, origin);
      const before = state.currentScore;
      // Upstream gates the slow update with evaluate_gate even when use_gate is off.
      const pairing = await currentPairing(ctx, state, key);
      const decision = decideGate({ ...ctx, settings: { ...settings, evaluation: { ...settings.evaluation, use_gate: true }, skillboard: { ...settings.skillboard, gate: settings.skillboard.gate === "none" ? "strict" : settings.skillboard.gate } } }, state, candidateSkill, candidate, state.globalStep, pairing);
      Object.assign(state, { currentSkill: decision.result.currentSkill, currentScore: decision.result.currentScore, bestSkill: decision.result.bestSkill, bestScore: decision.result.bestScore, bestStep: decision.result.bestStep });
      if (decision.result.action === "accept" || decision.result.action === "accept_new_best") state.currentOrigin = `slow_update_epoch_${pad2(epoch)}`;
      if (decision.result.action === "accept_new_best") state.bestOrigin = state.currentOrigin;
      Object.assign(record, { selection_hard: candidate.hard, selection_soft: candidate.soft, action: decision.result.action });
      gate = gateRecord(decision, candidate, before);
      io.log(`[optimize] epoch ${epoch} slow update val ${before.toFixed(3)} → ${decision.candidateGateScore.toFixed(3)} ${decision.result.action === "reject" ? "rejected" : "accepted"}`);
    } else {
      // Force-accepted into the current skill only; quirk copied: it inherits the score cached before it.
      state.currentSkill = candidateSkill;
      state.selCache.set(skillHash(state.currentSkill), { hard: state.currentScore, soft: 0, perItem: null, runId: null });
      state.currentOrigin = `slow_update_epoch_${pad2(epoch)}`;
      record.action = "force_accept";
      await io.skillVersion(candidateSkill, { parentSkill, stageKey: key });
      io.log(`[optimize] epoch ${epoch} slow update: guidance force-injected (${parsed.content.length} chars)`);
    }
  }
  // Quirk copied: the epoch-end skill overwrites the last step's skills/skill_vNNNN.md.
  state.savedSkills.set(state.globalStep, state.currentSkill);
  await io.saveStage({ ...base, action: String(record.action), candidateSkill, parentSkill, gate, record, currentSkill: state.currentSkill, bestSkill: state.bestSkill, state: stateSummary(state) });
  return pairs;
}

/** Writes the epoch's optimizer memory (meta skill), read by the next epoch's optimizer prompts. */
export async function runMetaSkill(
  ctx: LoopContext,
  state: LoopState,
  epoch: number,
  epochLastStepSkill: string,
  slowPairs: ComparisonPair[] | null,
): Promise<void> {
  const { io, settings } = ctx;
  const key = metaSkillKey(epoch);
  const base = { key, kind: "meta_skill" as const, epoch, globalStep: state.globalStep };
  if (epoch === 1) {
    await io.saveStage({ ...base, action: "skip_first_epoch", record: { action: "skip_first_epoch", epoch }, currentSkill: state.currentSkill, bestSkill: state.bestSkill, state: stateSummary(state) });
    return;
  }
  const started = performance.now();
  const previousSkill = previousEpochSkill(state, epoch);
  const pairs = slowPairs ?? (await longitudinalPairs(ctx, key, previousSkill, epochLastStepSkill, settings.train.seed + epoch * 2000)).pairs;
  const request = buildMetaSkillRequest({ previousSkill, currentSkill: epochLastStepSkill, previousMetaSkill: state.metaSkills.get(epoch - 1) ?? "", pairs });
  const reply = await io.callOptimizer({ key: `${key}/meta_skill`, stageKey: key, request, itemIds: pairs.map((pair) => pair.id) });
  const parsed = parseMetaSkillReply(reply);
  const timeS = Number(((performance.now() - started) / 1000).toFixed(1));
  const record: Record<string, unknown> = parsed
    ? { reasoning: parsed.reasoning, meta_skill_content: parsed.content, time_s: timeS, action: "write_meta_skill" }
    : { time_s: timeS, action: "no_content" };
  if (parsed) state.metaSkills.set(epoch, parsed.content);
  io.log(`[optimize] epoch ${epoch} meta skill: ${parsed ? `memory written (${parsed.content.length} chars)` : "no memory produced"}`);
  await io.saveStage({ ...base, action: String(record.action), record, currentSkill: state.currentSkill, bestSkill: state.bestSkill, state: stateSummary(state) });
}
