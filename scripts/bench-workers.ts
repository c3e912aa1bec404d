/**
 * Workers benchmark (PostgreSQL's queue): items/s of one run shared by 1, 2 and 4 `worker` processes (each
 * --concurrency 128, the run's concurrency 128 × workers) against the test model server at a fixed latency, on a
 * throwaway PostgreSQL cluster (tests/support/pg-cluster.ts). With 1 s per call the ideal is 128 items/s per worker.
 *
 *   npm run bench:workers -- [--workers 1,2,4] [--items 3072] [--latency-ms 1000]
 *
 * The rate is measured from the first item started to the last one finished (process start-up not counted). Data on
 * stdout, one JSON line per case; progress on stderr. The explorer's query times on PostgreSQL next to SQLite's:
 * `npm run bench:items -- --engine both`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import { CLI_NODE_FLAGS } from "../lib/cli/node-flags";
import { addSkillVersion, getRun, importDataset, openDatabase } from "../lib/db";
import { createRunFor } from "../lib/rollout";
import { RunSettingsSchema } from "../lib/runs";
import { startFakeOpenAIServer } from "../tests/support/fake-openai-server";
import { startPgCluster } from "../tests/support/pg-cluster";
import { makeItems } from "../tests/support/rollout-fixtures";

const { values } = parseArgs({
  options: { workers: { type: "string", default: "1,2,4" }, items: { type: "string", default: "3072" }, "latency-ms": { type: "string", default: "1000" } },
});
const WORKER_COUNTS = values.workers.split(",").map(Number);
const ITEMS = Number(values.items);
const PER_WORKER = 128;
const log = (line: string) => process.stderr.write(`${line}\n`);

const cluster = await startPgCluster();
const server = await startFakeOpenAIServer({ latencyMs: Number(values["latency-ms"]), recordRequests: false });
try {
  for (const count of WORKER_COUNTS) {
    const database = `bench_workers_${count}`;
    cluster.psql(`CREATE DATABASE ${database}`);
    const url = cluster.url(database);
    const db = openDatabase(url);
    await db.$connect();
    const workers = await Promise.all(Array.from({ length: count }, (_, i) => startWorker(url, `w${i + 1}`)));
    const dataset = await importDataset(db, { name: "bench", fileName: "bench.jsonl", format: "jsonl", hash: `bench-${count}`, items: makeItems(ITEMS) });
    const { version } = await addSkillVersion(db, { name: "bench", content: "Answer with the passage title." });
    const run = await createRunFor(db, {
      datasetId: dataset.id,
      skillVersionId: version.id,
      config: { model: { backend: "openai", model: "bench-model", baseURL: server.baseURL }, settings: RunSettingsSchema.parse({ concurrency: PER_WORKER * count }) },
    });
    log(`${count} worker(s): run ${run.id}, ${ITEMS} items, concurrency ${PER_WORKER * count}…`);
    let maxWorkers = 0;
    for (;;) {
      const now = await getRun(db, run.id);
      maxWorkers = Math.max(maxWorkers, await db.runWorker.count({ where: { runId: run.id } }));
      if (now.status !== "queued" && now.status !== "running") break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const span = await db.runResult.aggregate({ where: { runId: run.id }, _min: { startedAt: true }, _max: { finishedAt: true }, _count: true });
    const seconds = (span._max.finishedAt!.getTime() - span._min.startedAt!.getTime()) / 1000;
    const line = { case: "workers", workers: count, concurrency_each: PER_WORKER, latency_ms: Number(values["latency-ms"]), items: span._count, seconds: Number(seconds.toFixed(2)), items_per_s: Number((span._count / seconds).toFixed(1)), workers_seen: maxWorkers };
    console.log(JSON.stringify(line));
    log(`  ${line.items_per_s} items/s (${line.seconds} s; ideal ${(count * PER_WORKER * 1000) / Number(values["latency-ms"])}/s)`);
    await Promise.all(workers.map(stop));
    await db.$disconnect();
  }
} finally {
  await server.close();
  cluster.stop();
}

/** A `worker` process as a user starts it (the CLI bundle), resolved once it is polling. */
function startWorker(url: string, name: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, "scripts/cli.mjs", "worker", "--concurrency", String(PER_WORKER), "--name", name], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(`[${name}] worker ${child.pid} started`)) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`worker ${name} exited (${code}):\n${stderr}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  return exited;
}
