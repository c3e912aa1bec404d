/**
 * Rollout throughput benchmark: N items at concurrency C against our OpenAI-compatible server (in its
 * own process) with latency L, through the real executor, openai client and SQLite persistence.
 *
 *   npm run bench -- [--items 2000] [--concurrency 64] [--latency-ms 100] [--repeat 3]
 *
 * Reports wall time, items/s and two ratios measured in the same run: wall / ideal, where the ideal is
 * ceil(N/C) × L, and wall / reference, where the reference is the same N calls at the same
 * concurrency made with the bare openai client (no prompts, scoring or database). Data on stdout
 * (one JSON line per repeat), progress on stderr.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import OpenAI from "openai";
import { addSkillVersion, importDataset, openDatabase } from "../lib/db";
import { createRunFor, executeRun } from "../lib/rollout";
import { RunSettingsSchema } from "../lib/runs";
import { makeItems } from "../tests/support/rollout-fixtures";
import { spawnFakeModelServer } from "./fake-model-process";

const { values } = parseArgs({
  options: {
    items: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "64" },
    "latency-ms": { type: "string", default: "100" },
    repeat: { type: "string", default: "3" },
  },
});
const N = Number(values.items);
const C = Number(values.concurrency);
const L = Number(values["latency-ms"]);
const log = (line: string) => process.stderr.write(`${line}\n`);

const server = await spawnFakeModelServer(["--latency-ms", String(L)]);
const { baseURL } = server;

try {
  const idealS = (Math.ceil(N / C) * L) / 1000;
  for (let round = 1; round <= Number(values.repeat); round++) {
    const referenceS = await bareClientReference(baseURL);
    const dir = mkdtempSync(join(tmpdir(), "skillboard-bench-"));
    const db = openDatabase(`file:${join(dir, "bench.db")}`);
    try {
      const items = makeItems(N);
      const dataset = await importDataset(db, { name: "bench", fileName: "bench.jsonl", format: "jsonl", hash: "bench", items });
      const { version } = await addSkillVersion(db, { name: "bench", content: "Answer with the passage title." });
      const run = await createRunFor(db, {
        datasetId: dataset.id,
        skillVersionId: version.id,
        config: { model: { backend: "openai", model: "bench-model", baseURL }, settings: RunSettingsSchema.parse({ concurrency: C }) },
      });
      const started = performance.now();
      const done = await executeRun(db, run.id);
      const wallS = (performance.now() - started) / 1000;
      const stored = await db.runResult.count({ where: { runId: run.id } });
      if (done.status !== "completed" || stored !== N) throw new Error(`run ended ${done.status} with ${stored}/${N} results stored`);
      const figures = {
        round, items: N, concurrency: C, latency_ms: L, stored_results: stored, em: done.emSum / N,
        wall_s: round3(wallS), items_per_s: round3(N / wallS), ideal_s: idealS, ratio_to_ideal: round3(wallS / idealS),
        reference_s: round3(referenceS), ratio_to_reference: round3(wallS / referenceS),
      };
      log(`round ${round}: wall ${figures.wall_s}s, ${figures.items_per_s} items/s, ideal ${idealS}s → ratio ${figures.ratio_to_ideal}; bare client ${figures.reference_s}s → ratio ${figures.ratio_to_reference}`);
      process.stdout.write(`${JSON.stringify(figures)}\n`);
    } finally {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  server.stop();
}

/** The same N calls at concurrency C with the bare client: what the machine and server allow. */
async function bareClientReference(url: string): Promise<number> {
  const client = new OpenAI({ baseURL: url, apiKey: "bench", maxRetries: 0 });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < N) {
        const i = next++;
        await client.chat.completions.create({
          model: "bench-model",
          messages: [{ role: "user", content: `## Context\n[DOC] [TLE] Answer ${i} [PAR] text\n\n## Question\nclue ${i}` }],
        });
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
