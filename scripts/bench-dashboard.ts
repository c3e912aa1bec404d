/**
 * The dashboard's side of a large run: a 20,000-item run started from the New run form in Chromium, executed by the
 * dashboard's own worker against the test suite's OpenAI-compatible server (fixed latency), with the run page open
 * (it polls the live view itself). Meanwhile this script polls the same GET /api/runs/<id>/live the page does, every
 * 100 ms, and reads the server's RSS from /proc every 200 ms.
 *
 *   npm run bench:dashboard -- [--items 20000] [--concurrency 256] [--latency 50]
 *
 * Prints one JSON line (stdout) and a summary (stderr): live-poll latency p50 / p95 / max while the run goes, the
 * run's items/s, and the server's RSS at the start of the run and at its peak.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { addSkillVersion, getRun, importDataset, openDatabase } from "@/lib/db";
import { parseDatasetText } from "@/lib/datasets/parse";
import { startAppServer } from "../tests/support/app-server";
import { launchBrowser } from "../tests/support/browser";
import { startFakeOpenAIServer } from "../tests/support/fake-openai-server";
import { benchDatasetJsonl } from "./bench-dataset";

const { values } = parseArgs({
  options: { items: { type: "string", default: "20000" }, concurrency: { type: "string", default: "256" }, latency: { type: "string", default: "50" } },
});
const ITEMS = Number(values.items);
const log = (line: string) => process.stderr.write(`${line}\n`);

const model = await startFakeOpenAIServer({ recordRequests: false, latencyMs: Number(values.latency) });
const server = await startAppServer({ env: { OPENAI_BASE_URL: model.baseURL, SKILLBOARD_MODEL: "bench-model" } });
const db = openDatabase(server.databaseUrl);
const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
try {
  const items = parseDatasetText(benchDatasetJsonl(ITEMS), { fileName: "bench.jsonl" });
  await importDataset(db, { name: "bench-dashboard", fileName: "bench.jsonl", format: "jsonl", hash: `bench-${Date.now()}`, items });
  await addSkillVersion(db, { name: "bench-skill", content: readFileSync("tests/fixtures/skills/searchqa-trained.md", "utf8"), note: "bench" });

  const { page } = browser;
  await page.goto(`${server.baseURL}/runs/new`);
  await page.getByLabel("Dataset", { exact: true }).selectOption({ label: `bench-dashboard (${ITEMS} items)` });
  await page.getByLabel("Skill version", { exact: true }).selectOption({ label: "bench-skill v1 — bench" });
  await page.getByLabel("Concurrency", { exact: true }).fill(values.concurrency);
  const rssAtStart = rssMb(server.pid);
  await page.getByRole("button", { name: "Start run", exact: true }).click();
  await page.waitForURL(/\/runs\/\d+$/, { timeout: 30_000 });
  const runId = Number(new URL(page.url()).pathname.split("/").pop());

  const latencies: number[] = [];
  let peakRss = rssAtStart;
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid))), 200);
  let status = "queued";
  for (;;) {
    const started = performance.now();
    const response = await fetch(`${server.baseURL}/api/runs/${runId}/live`);
    const body = (await response.json()) as { run: { status: string } };
    if (!response.ok) throw new Error(`GET /api/runs/${runId}/live answered ${response.status}`);
    status = body.run.status;
    if (status === "running") latencies.push(performance.now() - started);
    if (status !== "running" && status !== "queued") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  clearInterval(rssTimer);
  const run = await getRun(db, runId);
  const activeS = run.activeMs / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? Number.NaN);
  const row = {
    items: ITEMS, concurrency: Number(values.concurrency), latency_ms: Number(values.latency), status, done: run.nDone,
    active_s: round(activeS), items_per_s: Math.round(run.nDone / activeS), polls: latencies.length,
    poll_p50_ms: pct(0.5), poll_p95_ms: pct(0.95), poll_max_ms: round(latencies.at(-1) ?? Number.NaN),
    server_rss_start_mb: rssAtStart, server_rss_peak_mb: peakRss,
  };
  process.stdout.write(`${JSON.stringify(row)}\n`);
  log(`run ${runId} ${status}: ${run.nDone} items in ${row.active_s} s (${row.items_per_s}/s)`);
  log(`live poll while running (${row.polls} polls): p50 ${row.poll_p50_ms} ms, p95 ${row.poll_p95_ms} ms, max ${row.poll_max_ms} ms`);
  log(`server RSS: ${rssAtStart} MB at the start, ${peakRss} MB at the peak`);
} finally {
  await browser.close();
  await db.$disconnect();
  await server.stop();
  await model.close();
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
