// The gate's paired statistics after a slow update. Upstream's epoch-1 placeholder and force-accepted slow updates
// inherit the score and are never rolled out on val, so the next steps have nothing to pair with: in seed mode the step
// records why; with `skillboard.measure_inherited` the current skill gets a val run of its own and every gated step has
// fixed / broken, the McNemar p-value and the interval, while the loop's prompts, rollouts and decisions stay the same.
import { expect, it } from "vitest";
import { listOptimizationRuns, listOptimizationSteps, listOptimizerCalls, measureOptimizationSpend } from "@/lib/db";
import { createOptimizationFor, executeOptimization, validateOptimization } from "@/lib/optimize/engine";
import { estimateOptimization } from "@/lib/optimize/engine/estimate";
import type { StageGate } from "@/lib/optimize/overview";
import { withOptimizerWorld } from "../support/optimizer-world";

const world = withOptimizerWorld("skillboard-gate-pairing-");

async function optimise(skillboard: Record<string, unknown>) {
  const input = await world.optimizationInput({
    train: { num_epochs: 3, train_size: 0, batch_size: 12 }, gradient: { minibatch_size: 4, merge_batch_size: 2 }, optimizer: { slow_update_samples: 4 }, skillboard,
  });
  const estimate = await estimateOptimization(world.db, input, await validateOptimization(world.db, input));
  const optimization = await createOptimizationFor(world.db, input);
  const { record } = await executeOptimization(world.db, optimization.id, { log: () => {} });
  expect(record.status).toBe("completed");
  const stages = await listOptimizationSteps(world.db, optimization.id);
  const gated = stages.filter((stage) => stage.gateJson).map((stage) => ({ key: stage.key, action: stage.action, gate: JSON.parse(stage.gateJson!) as StageGate }));
  const calls = (await listOptimizerCalls(world.db, optimization.id)).map((call) => ({ key: call.key, system: call.system, user: call.user }));
  const runs = (await listOptimizationRuns(world.db, optimization.id)).map((run) => run.key);
  const spend = await measureOptimizationSpend(world.db, optimization.id);
  expect(spend.targetCalls).toBeLessThanOrEqual(estimate.target_calls.max);
  return { stages, gated, calls, runs, estimate, valItems: estimate.val_items };
}

it("records why a step after an inherited score has no statistics, and measures it when asked, with the same decisions", async () => {
  const seed = await optimise({});
  // Epoch 1's slow update injects the placeholder: the steps of epoch 2 start from a skill that was never on val.
  expect(seed.stages.find((stage) => stage.key === "slow:01")?.action).toBe("inject_placeholder");
  const afterPlaceholder = seed.gated.find((stage) => stage.key === "step:0003")!;
  expect(afterPlaceholder.gate.statistics).toBeNull();
  expect(afterPlaceholder.gate.statistics_note).toMatch(/^not measured: the slow update's placeholder inherited the score/);
  expect(seed.gated.filter((stage) => stage.gate.statistics).length).toBeGreaterThan(0);
  for (const stage of seed.gated) expect(stage.gate.statistics ?? stage.gate.statistics_note, stage.key).toBeTruthy();
  expect(seed.runs.filter((key) => key.endsWith("/selection/current"))).toEqual([]);

  await world.renewDatabase();
  const measured = await optimise({ measure_inherited: true });
  for (const stage of measured.gated) {
    expect(stage.gate.statistics, stage.key).toMatchObject({ fixed: expect.any(Number), broken: expect.any(Number), p_value: expect.any(Number), difference: { low: expect.any(Number), high: expect.any(Number) } });
    expect(stage.gate.statistics_note).toBeUndefined();
  }
  const step3 = measured.gated.find((stage) => stage.key === "step:0003")!;
  expect(step3.gate.current_val).toMatchObject({ key: "step:0003/selection/current", hard: expect.any(Number) });
  // One extra val run per inherited skill, measured where first needed and reused after.
  const extra = measured.runs.filter((key) => key.endsWith("/selection/current"));
  expect(extra).toContain("step:0003/selection/current");
  expect(new Set(extra).size).toBe(extra.length);

  // The estimate counts the extra val runs: one per later epoch at most.
  expect(measured.estimate.target_calls.max - seed.estimate.target_calls.max).toBe(2 * measured.valItems);

  // Only what is recorded beside the loop changed: the same prompts, the same other rollouts, the same decisions.
  expect(measured.calls).toEqual(seed.calls);
  expect(measured.runs.filter((key) => !extra.includes(key))).toEqual(seed.runs);
  expect(measured.gated.map(({ key, action, gate }) => ({ key, action, before: gate.score_before, candidate: gate.candidate_score }))).toEqual(
    seed.gated.map(({ key, action, gate }) => ({ key, action, before: gate.score_before, candidate: gate.candidate_score })),
  );
}, 180_000);
