import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { datasetJsonl, optimizationDataset, TOPIC_RULES_HEADING } from "./fake-optimizer-target";

/** Train / val / test files of the fake optimisation world (tests/support/fake-optimizer-target.ts), and a skill. */
export function writeOptimizationFiles(dir: string, options: { train?: number; val?: number; test?: number; topics?: number; lureRate?: number } = {}) {
  const { train = 24, val = 18, test = 12, topics = 6 } = options;
  const items = optimizationDataset({ size: train + val + test, topics, seed: 3, lureRate: options.lureRate });
  const files = {
    train: join(dir, "train.jsonl"),
    val: join(dir, "val.jsonl"),
    test: join(dir, "test.jsonl"),
    skill: join(dir, "topic-skill.md"),
  };
  writeFileSync(files.train, datasetJsonl(items.slice(0, train)));
  writeFileSync(files.val, datasetJsonl(items.slice(train, train + val)));
  writeFileSync(files.test, datasetJsonl(items.slice(train + val)));
  writeFileSync(files.skill, `# Topic answering\n\nRead the passages and answer with one title.\n\n${TOPIC_RULES_HEADING}\n`);
  return files;
}

/** Small but complete loop settings: 2 epochs of 3 steps, slow update and meta skill on. */
export const SMALL_LOOP = ["--epochs", "2", "--batch-size", "8", "--minibatch-size", "4", "--merge-batch-size", "2", "--slow-update-samples", "6", "--concurrency", "8", "--optimizer-concurrency", "4"];
