/**
 * Which train items each step rolls out, and how its trajectories are cut into analyst minibatches, ported from
 * `SplitDataLoader.plan_train_epoch` (skillopt/datasets/base.py), the trainer's step count
 * (skillopt/engine/trainer.py) and `run_minibatch_reflect`'s grouping (skillopt/gradient/reflect.py:
 * `_shuffle_for_minibatch`, `_split_minibatches`). The trainer passes each batch's seed as the reflect seed.
 *
 * Order: upstream lists rollout results in the order calls finish; Skillboard passes them in item order, which
 * is what upstream produces with one worker (issue 15, "Order").
 */
import { PyRandom, pyShuffled } from "./py-random";

/** `steps_per_epoch = ceil(train_size / (batch_size * accumulation))`. */
export function stepsPerEpoch(trainSize: number, batchSize: number, accumulation: number): number {
  return Math.ceil(trainSize / (batchSize * accumulation));
}

export interface TrainBatch<T> {
  /** `seed + epoch * 1000 + batch_index + 1`: the batch's seed, also its minibatch shuffle seed. */
  seed: number;
  items: T[];
}

/**
 * One epoch's batches (steps × accumulation of them): the train items shuffled with
 * `Random(seed + epoch * 1000)` and dealt out `batch_size` at a time. Quirk copied: once the items run out,
 * each further batch is a fresh shuffle of all items with `Random(batch seed)`, cut to `batch_size`.
 */
export function planTrainEpoch<T>(
  trainItems: readonly T[],
  options: { epoch: number; stepsPerEpoch: number; accumulation: number; batchSize: number; seed: number },
): TrainBatch<T>[] {
  const { epoch, accumulation, batchSize, seed } = options;
  const epochSeed = seed + epoch * 1000;
  const items = pyShuffled(trainItems, epochSeed);
  const total = options.stepsPerEpoch * accumulation;
  const batches: TrainBatch<T>[] = [];
  let cursor = 0;
  for (let batchIndex = 0; batchIndex < total; batchIndex++) {
    const batchSeed = epochSeed + batchIndex + 1;
    let batch = items.slice(cursor, cursor + batchSize);
    cursor += batch.length;
    if (batch.length === 0 && items.length > 0) batch = pyShuffled(items, batchSeed).slice(0, batchSize);
    batches.push({ seed: batchSeed, items: batch });
  }
  return batches;
}

export interface Minibatches<T> {
  failure: T[][];
  success: T[][];
}

/**
 * `run_minibatch_reflect`'s grouping. A failure is a result whose `hard` is falsy or below 1e-9; a success one
 * whose `hard` is truthy (none with `failure_only`). Quirk copied: a `hard` that is truthy but below 1e-9 (a tiny
 * or negative partial score) is in both lists. Failures are shuffled with `Random(seed)`, successes with
 * `Random(seed + 1)`, then each list is cut into minibatches of `minibatch_size` in order.
 */
export function planMinibatches<T extends { hard?: number | null }>(
  results: readonly T[],
  options: { failureOnly: boolean; minibatchSize: number; seed: number | null },
): Minibatches<T> {
  const failures = results.filter((result) => !result.hard || result.hard < 1e-9);
  const successes = options.failureOnly ? [] : results.filter((result) => Boolean(result.hard));
  const ordered = (list: T[], seed: number | null) => {
    if (seed !== null) new PyRandom(seed).shuffle(list);
    return list;
  };
  const chunks = (list: T[]) => {
    const out: T[][] = [];
    for (let i = 0; i < list.length; i += options.minibatchSize) out.push(list.slice(i, i + options.minibatchSize));
    return out;
  };
  return {
    failure: chunks(ordered(failures, options.seed)),
    success: chunks(ordered(successes, options.seed === null ? null : options.seed + 1)),
  };
}
