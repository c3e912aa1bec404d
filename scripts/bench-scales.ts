/**
 * The CLI end to end at the performance issue's three scales: `run --dataset FILE` (import included) in its own
 * process under /usr/bin/time, against the test suite's OpenAI-compatible server (in this process, requests not
 * recorded) with a fixed latency, on a fresh database each time.
 *
 *   npm run bench:scales -- [--scales 2000/64/100,5000/256/200,20000/256/50] [--repeat 1] [--cli "node <CLI_NODE_FLAGS> scripts/cli.mjs"]
 *
 * Columns: wall (process start → exit), window (first request → last response, as the server sees them), pre
 * (process start → first request: start-up and dataset import), CPU (user + system of the CLI process), CPU per
 * item, peak RSS, items/s (N / window), and wall and window over the ideal ceil(N/C) × L. One JSON line per run on
 * stdout, the table on stderr.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CLI_NODE_FLAGS } from "../lib/cli/node-flags";
import { defaultAnswer, startFakeOpenAIServer } from "../tests/support/fake-openai-server";
import { benchDatasetJsonl } from "./bench-dataset";
import { ISSUE_SCALES, log, parseScales, printTable, round } from "./bench-table";

const { values } = parseArgs({
  options: {
    scales: { type: "string", default: ISSUE_SCALES },
    repeat: { type: "string", default: "1" },
    cli: { type: "string", default: `node ${CLI_NODE_FLAGS.join(" ")} scripts/cli.mjs` },
  },
});
const scales = parseScales(values.scales);
const cli = values.cli.split(" ").filter(Boolean);
const skill = "tests/fixtures/skills/searchqa-trained.md";

// The server's own view of the run: when the first request arrived and when the last response was sent.
let firstRequestMs = 0;
let lastResponseMs = 0;
const server = await startFakeOpenAIServer({
  recordRequests: false,
  faults: {
    pick: () => {
      firstRequestMs ||= Date.now();
      return undefined;
    },
  },
  answer: (request) => {
    lastResponseMs = Date.now();
    return defaultAnswer(request);
  },
});

const work = mkdtempSync(join(tmpdir(), "skillboard-bench-scales-"));
const rows: Record<string, number | string>[] = [];
try {
  // The bundle is built once here, not inside the first measured run.
  spawnSync(cli[0]!, [...cli.slice(1), "help"], { stdio: "ignore", env: { ...process.env, DATABASE_URL: `file:${join(work, "warm.db")}` } });
  for (const { n, c, l } of scales) {
    const dataset = join(work, `dataset-${n}.jsonl`);
    writeFileSync(dataset, benchDatasetJsonl(n));
    for (let round = 1; round <= Number(values.repeat); round++) {
      rows.push(await measure(dataset, n, c, l));
      const row = rows[rows.length - 1]!;
      process.stdout.write(`${JSON.stringify(row)}\n`);
      log(`${n}/${c}/${l}: wall ${row.wall_s} s, window ${row.window_s} s, pre ${row.pre_s} s, CPU ${row.cpu_s} s, peak RSS ${row.peak_rss_mb} MB`);
    }
  }
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
printTable(rows, [
  "n", "concurrency", "latency_ms", "wall_s", "window_s", "pre_s", "post_s", "cpu_s", "cpu_ms_per_item", "peak_rss_mb", "items_per_s",
  "wall_over_ideal", "window_over_ideal", "max_in_flight",
]);

async function measure(dataset: string, n: number, c: number, l: number): Promise<Record<string, number | string>> {
  const db = join(work, `bench-${n}-${Date.now()}.db`);
  const timeFile = join(work, "time.txt");
  server.setOptions({ latencyMs: l });
  server.resetStats();
  firstRequestMs = 0;
  lastResponseMs = 0;
  const args = [...cli.slice(1), "run", "--dataset", dataset, "--skill", skill, "--model", "bench", "--base-url", server.baseURL, "--concurrency", String(c)];
  const started = Date.now();
  const child = spawn("/usr/bin/time", ["-v", "-o", timeFile, cli[0]!, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DATABASE_URL: `file:${db}` },
  });
  let stdout = "";
  let stderrTail = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString()).slice(-2000)));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const ended = Date.now();
  const summary = JSON.parse(stdout.trim().split("\n").pop() || "{}") as { status?: string; n?: number; em?: number };
  if (code !== 0 || summary.status !== "completed" || summary.n !== n) {
    throw new Error(`${n}/${c}/${l}: the CLI exited ${code} with ${stdout.trim() || "no summary"}\n${stderrTail}`);
  }
  const time = readFileSync(timeFile, "utf8");
  const seconds = (label: string) => Number(new RegExp(`${label} time \\(seconds\\): ([\\d.]+)`).exec(time)?.[1]);
  const cpuS = seconds("User") + seconds("System");
  const peakRssMb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(time)?.[1]) / 1024;
  const idealS = (Math.ceil(n / c) * l) / 1000;
  const wallS = (ended - started) / 1000;
  const windowS = (lastResponseMs - firstRequestMs) / 1000;
  rmSync(db, { force: true });
  return {
    n, concurrency: c, latency_ms: l, em: round(summary.em ?? 0),
    wall_s: round(wallS), window_s: round(windowS), pre_s: round((firstRequestMs - started) / 1000), post_s: round((ended - lastResponseMs) / 1000),
    cpu_s: round(cpuS), cpu_ms_per_item: round((cpuS * 1000) / n), peak_rss_mb: Math.round(peakRssMb),
    items_per_s: Math.round(n / windowS), ideal_s: idealS, wall_over_ideal: round(wallS / idealS), window_over_ideal: round(windowS / idealS),
    max_in_flight: server.stats().maxInFlight,
  };
}
