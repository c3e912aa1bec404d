// What the engine records of a step's merge tree (which analyst patches merged into which, up to the ranking) and the
// optimizer calls in flight, against the scripted models and a real database.
import { expect, it } from "vitest";
import { getOptimization, listOptimizerCalls } from "@/lib/db";
import { createOptimizationFor, executeOptimization } from "@/lib/optimize/engine";
import { parseAnalystReply } from "@/lib/optimize/loop/replies";
import { withOptimizerWorld } from "../support/optimizer-world";

/** An analyst call whose reply upstream reads as a patch with edits (one that is merged). */
function hasEdits(call: { stage: string; key: string; reply: string | null }): boolean {
  if (call.stage !== "analyst" || call.reply === null) return false;
  const parsed = parseAnalystReply(call.reply, call.key.includes("/failure/") ? "failure" : "success", 4) as { patch?: { edits?: unknown } } | null;
  return Array.isArray(parsed?.patch?.edits) && parsed.patch.edits.length > 0;
}

const world = withOptimizerWorld("skillboard-merge-tree-");

it("records each merge call's inputs: every usable analyst patch once, merged level by level into the ranking", async () => {
  const { id } = await createOptimizationFor(
    world.db,
    await world.optimizationInput(
      { train: { num_epochs: 1, train_size: 0, batch_size: 12 }, gradient: { minibatch_size: 2, merge_batch_size: 2 }, optimizer: { learning_rate: 2, min_learning_rate: 1, slow_update_samples: 6 } },
      { topics: 12, train: 24, val: 18, test: 12 },
    ),
  );
  // Slow optimizer calls, so the gauge can be seen while they are under way.
  world.server.setOptions({ latencyMs: 30 });
  let seenInFlight = 0;
  const watch = setInterval(() => {
    void getOptimization(world.db, id).then((row) => (seenInFlight = Math.max(seenInFlight, row.optimizerInFlight)), () => {});
  }, 10);
  const { record } = await executeOptimization(world.db, id, { log: () => {} });
  clearInterval(watch);
  expect(record.status).toBe("completed");
  expect(seenInFlight).toBeGreaterThan(0);
  expect(seenInFlight).toBeLessThanOrEqual(4);
  expect((await getOptimization(world.db, id)).optimizerInFlight).toBe(0);

  const calls = await listOptimizerCalls(world.db, id);
  const inputs = (key: string) => JSON.parse(calls.find((call) => call.key === key)!.inputKeysJson) as string[];
  const steps = [...new Set(calls.filter((call) => call.stage === "merge").map((call) => call.stepKey))];
  expect(steps.length).toBeGreaterThan(0);
  let levelsAboveOne = 0;
  for (const step of steps) {
    const ofStep = calls.filter((call) => call.stepKey === step);
    const merges = ofStep.filter((call) => call.stage === "merge");
    for (const merge of merges) {
      const taken = inputs(merge.key);
      expect(taken.length, merge.key).toBeGreaterThanOrEqual(2);
      for (const input of taken) expect(ofStep.map((call) => call.key), `${merge.key} took in ${input}`).toContain(input);
      if (merge.mergeLevel === 1) for (const input of taken) expect(input).toMatch(/\/analyst\/(failure|success)\/\d{3}$/);
      if (merge.mergeLevel !== null && merge.mergeLevel > 1) levelsAboveOne++;
      // A tree merges only its own group's patches.
      const group = /\/merge\/(failure|success)\//.exec(merge.key)?.[1];
      if (group && merge.mergeLevel === 1) for (const input of taken) expect(input).toContain(`/analyst/${group}/`);
    }
    // Every analyst call with a usable patch is a leaf exactly once; nothing else is taken in twice.
    const all = ofStep.flatMap((call) => JSON.parse(call.inputKeysJson) as string[]);
    expect(new Set(all).size).toBe(all.length);
    const ranking = ofStep.find((call) => call.stage === "ranking");
    // With a ranking, the whole tree hangs under it: every analyst patch with edits is a leaf of it.
    if (ranking) for (const analyst of ofStep.filter(hasEdits)) expect(all, `${analyst.key} is merged`).toContain(analyst.key);
    // The ranking took in the tree's root: the final merge when both trees had edits, else a tree's root.
    if (ranking) {
      const [root] = inputs(ranking.key);
      expect(root).toBeDefined();
      expect(all.filter((key) => key === root)).toHaveLength(1);
      const final = merges.find((merge) => merge.key.includes("/final/"));
      if (final) expect(root).toBe(final.key);
    }
  }
  expect(levelsAboveOne).toBeGreaterThan(0);
  expect(calls.filter(hasEdits).length).toBeGreaterThan(2);
}, 180_000);
