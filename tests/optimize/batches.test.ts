/**
 * Epoch batches and analyst minibatches against upstream (record_core.py "batches"): SplitDataLoader's
 * plan_train_epoch (including the refill of batches past the end of tiny train splits) and run_minibatch_reflect's
 * failure/success grouping, shuffles and cuts.
 */
import { describe, expect, it } from "vitest";
import { planMinibatches, planTrainEpoch, stepsPerEpoch } from "@/lib/optimize/batches";
import { goldenSection } from "./golden";

interface BatchesGolden {
  epochs: {
    n_train: number;
    batch_size: number;
    accumulation: number;
    steps_per_epoch: number;
    epoch: number;
    seed: number;
    batches: { seed: number; items: string[] }[];
  }[];
  minibatches: {
    results: { id: string; hard: number | null }[];
    failure_only: boolean;
    minibatch_size: number;
    seed: number | null;
    failure: string[][];
    success: string[][];
  }[];
}

const golden = goldenSection<BatchesGolden>("batches");

describe("batches match upstream", () => {
  it("plans each epoch's batches as SplitDataLoader.plan_train_epoch does", () => {
    const actual = golden.epochs.map((c) => {
      const ids = Array.from({ length: c.n_train }, (_, i) => `t${String(i).padStart(3, "0")}`);
      const steps = stepsPerEpoch(c.n_train, c.batch_size, c.accumulation);
      const batches = planTrainEpoch(ids, { epoch: c.epoch, stepsPerEpoch: steps, accumulation: c.accumulation, batchSize: c.batch_size, seed: c.seed });
      return { ...c, steps_per_epoch: steps, batches };
    });
    expect(actual).toEqual(golden.epochs);
    expect(golden.epochs.some((c) => c.batches.length * c.batch_size > c.n_train)).toBe(true); // refills covered
  });

  it("groups trajectories into minibatches as run_minibatch_reflect does", () => {
    const actual = golden.minibatches.map((c) => {
      const plan = planMinibatches(c.results, { failureOnly: c.failure_only, minibatchSize: c.minibatch_size, seed: c.seed });
      return { ...c, failure: plan.failure.map((b) => b.map((r) => r.id)), success: plan.success.map((b) => b.map((r) => r.id)) };
    });
    expect(actual).toEqual(golden.minibatches);
  });

  it("counts a tiny positive or negative hard score as both a failure and a success, as upstream does", () => {
    const plan = planMinibatches([{ hard: 1e-10 }, { hard: -1 }, { hard: 1 }], { failureOnly: false, minibatchSize: 8, seed: null });
    expect(plan.failure.flat().map((r) => r.hard)).toEqual([1e-10, -1]);
    expect(plan.success.flat().map((r) => r.hard)).toEqual([1e-10, -1, 1]);
  });
});
