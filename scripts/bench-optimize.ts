/**
 * The optimisation loop's own overhead: an optimisation (default 4 epochs × 10 steps) against the scripted optimizer
 * and skill-sensitive target in a separate zero-latency server process, through the real engine, openai client and
 * SQLite. Every model call (target and optimizer) is timed; the overhead is the wall time during which no model call
 * was in flight (wall minus the union of the calls' intervals): prompt building, merging, scoring, the database.
 *
 *   npm run bench:optimize -- [--epochs 4] [--steps-per-epoch 10] [--batch-size 8] [--val 40] [--test 40]
 *
 * One JSON line on stdout, progress on stderr.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { addSkillVersion, importDataset, openDatabase } from "../lib/db";
import { createChatModel, type ChatModel } from "../lib/model";
import { createOptimizationFor, executeOptimization } from "../lib/optimize/engine";
import { RunSettingsSchema } from "../lib/runs";
import { optimizationDataset } from "../tests/support/fake-optimizer-target";
import { spawnFakeModelServer } from "./fake-model-process";

const { values } = parseArgs({
  options: {
    epochs: { type: "string", default: "4" }, "steps-per-epoch": { type: "string", default: "10" }, "batch-size": { type: "string", default: "8" },
    val: { type: "string", default: "40" }, test: { type: "string", default: "40" },
  },
});
const epochs = Number(values.epochs);
const batchSize = Number(values["batch-size"]);
const trainN = Number(values["steps-per-epoch"]) * batchSize;
const log = (line: string) => process.stderr.write(`${line}\n`);

const server = await spawnFakeModelServer(["--optimizer"]);
const { baseURL } = server;

/** Records each call's [start, end] so the time with any call in flight can be measured. */
function timed(model: ChatModel, intervals: [number, number][]): ChatModel {
  return {
    backend: model.backend,
    model: model.model,
    async complete(request, observer) {
      const start = performance.now();
      try {
        return await model.complete(request, observer);
      } finally {
        intervals.push([start, performance.now()]);
      }
    },
  };
}

function unionMs(intervals: [number, number][]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [start, end] = sorted[0] ?? [0, 0];
  for (const [s, e] of sorted.slice(1)) {
    if (s > end) {
      total += end - start;
      [start, end] = [s, e];
    } else end = Math.max(end, e);
  }
  return total + (end - start);
}

const dir = mkdtempSync(join(tmpdir(), "skillboard-bench-optimize-"));
const db = openDatabase(`file:${join(dir, "bench.db")}`);
try {
  const items = optimizationDataset({ size: trainN + Number(values.val) + Number(values.test), topics: 12, seed: 3, lureRate: 0.6 });
  const part = async (name: string, slice: typeof items) => importDataset(db, { name, fileName: `${name}.jsonl`, format: "jsonl", hash: name, items: slice });
  const train = await part("train", items.slice(0, trainN));
  const val = await part("val", items.slice(trainN, trainN + Number(values.val)));
  const test = await part("test", items.slice(trainN + Number(values.val)));
  const { version } = await addSkillVersion(db, { name: "bench", content: "# Topic answering\n\nAnswer with one title.\n\n## Topic rules\n" });
  const selection = { backend: "openai" as const, model: "fake", baseURL };
  const optimization = await createOptimizationFor(db, {
    skillVersionId: version.id, trainDatasetId: train.id, valDatasetId: val.id, testDatasetId: test.id,
    settings: { train: { num_epochs: epochs, train_size: 0, batch_size: batchSize }, optimizer: { learning_rate: 2, min_learning_rate: 1 } },
    targetConfig: { model: selection, settings: RunSettingsSchema.parse({ concurrency: 24 }) },
    optimizer: { ...selection, concurrency: 16 },
  });
  const intervals: [number, number][] = [];
  const targetModel = timed(createChatModel(selection, { callTimeoutMs: 60_000, maxRetries: 3 }), intervals);
  const optimizerModel = timed(createChatModel(selection, { callTimeoutMs: 60_000, maxRetries: 3 }), intervals);
  const started = performance.now();
  const { record, outcome } = await executeOptimization(db, optimization.id, { targetModel, optimizerModel, log: () => undefined });
  const wallMs = performance.now() - started;
  if (record.status !== "completed" || !outcome) throw new Error(`optimization ended ${record.status}: ${record.error ?? ""}`);
  const modelMs = unionMs(intervals);
  const steps = outcome.state.history.length;
  const figures = {
    epochs, steps, model_calls: intervals.length, target_calls: record.targetCalls, optimizer_calls: record.optimizerCalls,
    wall_s: +(wallMs / 1000).toFixed(3), model_calls_s: +(modelMs / 1000).toFixed(3), overhead_s: +((wallMs - modelMs) / 1000).toFixed(3),
    overhead_ms_per_step: +((wallMs - modelMs) / steps).toFixed(1), overhead_share: +((wallMs - modelMs) / wallMs).toFixed(3),
  };
  log(`${steps} steps, ${intervals.length} model calls: wall ${figures.wall_s}s, calls in flight ${figures.model_calls_s}s, overhead ${figures.overhead_s}s (${figures.overhead_ms_per_step} ms/step)`);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
  server.stop();
}
