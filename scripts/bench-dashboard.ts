/**
 * The dashboard's side of a large run: a 20,000-item run started from the New run form in Chromium, executed by the
 * dashboard's own worker against the test suite's OpenAI-compatible server (its own process, fixed latency), with the
 * run page open (it polls the live view every second, and its item table follows new results). Meanwhile this script
 * polls the same GET /api/runs/<id>/live every 100 ms, and reads the server's RSS and every process's CPU from /proc.
 *
 *   npm run bench:dashboard -- [--items 20000] [--concurrency 256] [--latency 50] [--runs 3]
 *
 * The runs go one after another on one server. Prints a JSON line per run and one for all of them (stdout), and a
 * summary (stderr): the live poll's latency (this script's polls, and the page's own) p50 / p95 / max while the run
 * goes, the run's items/s, the CPU seconds of the server, its worker process, Chromium and the model server during the
 * run, and the server's RSS at the start and at its peak.
 */
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { addSkillVersion, getRun, importDataset, openDatabase } from "@/lib/db";
import { parseDatasetText } from "@/lib/datasets/parse";
import { startAppServer } from "../tests/support/app-server";
import { launchBrowser } from "../tests/support/browser";
import { benchDatasetJsonl } from "./bench-dataset";
import { spawnFakeModelServer } from "./fake-model-process";

const { values } = parseArgs({
  options: {
    items: { type: "string", default: "20000" }, concurrency: { type: "string", default: "256" }, latency: { type: "string", default: "50" },
    runs: { type: "string", default: "3" },
  },
});
const ITEMS = Number(values.items);
const log = (line: string) => process.stderr.write(`${line}\n`);

const model = await spawnFakeModelServer(["--latency-ms", values.latency]);
const server = await startAppServer({ env: { OPENAI_BASE_URL: model.baseURL, SKILLBOARD_MODEL: "bench-model" } });
const db = openDatabase(server.databaseUrl);
const browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
try {
  const items = parseDatasetText(benchDatasetJsonl(ITEMS), { fileName: "bench.jsonl" });
  await importDataset(db, { name: "bench-dashboard", fileName: "bench.jsonl", format: "jsonl", hash: `bench-${Date.now()}`, items });
  await addSkillVersion(db, { name: "bench-skill", content: readFileSync("tests/fixtures/skills/searchqa-trained.md", "utf8"), note: "bench" });
  const all = { probe: [] as number[], page: [] as number[], rssStart: rssMb(server.pid), rssPeak: 0 };
  for (let round = 1; round <= Number(values.runs); round++) {
    const row = await oneRun(round);
    all.probe.push(...row.probe);
    all.page.push(...row.page);
    all.rssPeak = Math.max(all.rssPeak, row.rssPeak);
  }
  const summary = {
    runs: Number(values.runs), items: ITEMS, ...latencyFigures("poll", all.probe), ...latencyFigures("page_poll", all.page),
    server_rss_start_mb: all.rssStart, server_rss_peak_mb: all.rssPeak,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  log(`all ${summary.runs} runs: live poll p50 ${summary.poll_p50_ms} ms, p95 ${summary.poll_p95_ms} ms, max ${summary.poll_max_ms} ms (${all.probe.length} polls);`);
  log(`  the page's own polls p50 ${summary.page_poll_p50_ms} ms, p95 ${summary.page_poll_p95_ms} ms (${all.page.length}); server RSS ${all.rssStart} MB at the start, ${all.rssPeak} MB at the peak`);
} finally {
  await browser.close();
  await db.$disconnect();
  await server.stop();
  model.stop();
}

async function oneRun(round: number) {
  const { page } = browser;
  await page.goto(`${server.baseURL}/runs/new`);
  await page.getByLabel("Dataset", { exact: true }).selectOption({ label: `bench-dashboard (${ITEMS} items)` });
  await page.getByLabel("Skill version", { exact: true }).selectOption({ label: "bench-skill v1 — bench" });
  await page.getByLabel("Concurrency", { exact: true }).fill(values.concurrency);
  const rssAtStart = rssMb(server.pid);
  const cpuAtStart = cpuSeconds();
  await page.getByRole("button", { name: "Start run", exact: true }).click();
  await page.waitForURL(/\/runs\/\d+$/, { timeout: 30_000 });
  const runId = Number(new URL(page.url()).pathname.split("/").pop());

  const probe: number[] = [];
  const pagePolls: number[] = [];
  let running = false;
  const onPagePoll = (request: import("playwright-core").Request) => {
    if (running && request.url().endsWith(`/api/runs/${runId}/live`)) pagePolls.push(request.timing().responseEnd);
  };
  page.on("requestfinished", onPagePoll);
  let peakRss = rssAtStart;
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid))), 200);
  let status = "queued";
  for (;;) {
    const started = performance.now();
    const response = await fetch(`${server.baseURL}/api/runs/${runId}/live`);
    const body = (await response.json()) as { run: { status: string } };
    if (!response.ok) throw new Error(`GET /api/runs/${runId}/live answered ${response.status}`);
    status = body.run.status;
    running = status === "running";
    if (running) probe.push(performance.now() - started);
    if (status !== "running" && status !== "queued") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  clearInterval(rssTimer);
  page.off("requestfinished", onPagePoll);
  const cpu = cpuSeconds();
  const run = await getRun(db, runId);
  const activeS = run.activeMs / 1000;
  const row = {
    round, items: ITEMS, concurrency: Number(values.concurrency), latency_ms: Number(values.latency), status, done: run.nDone,
    active_s: round1(activeS), items_per_s: Math.round(run.nDone / activeS), ...latencyFigures("poll", probe), ...latencyFigures("page_poll", pagePolls),
    ...Object.fromEntries(Object.entries(cpu).map(([name, seconds]) => [`${name}_cpu_s`, round1(seconds - (cpuAtStart[name] ?? 0))])),
    server_rss_start_mb: rssAtStart, server_rss_peak_mb: peakRss,
  };
  process.stdout.write(`${JSON.stringify(row)}\n`);
  log(`run ${runId} ${status}: ${run.nDone} items in ${row.active_s} s (${row.items_per_s}/s)`);
  log(`  live poll while running (${probe.length} polls): p50 ${row.poll_p50_ms} ms, p95 ${row.poll_p95_ms} ms, max ${row.poll_max_ms} ms; the page's own (${pagePolls.length}): p50 ${row.page_poll_p50_ms} ms, p95 ${row.page_poll_p95_ms} ms`);
  log(`  CPU s during the run: ${Object.keys(cpu).map((name) => `${name} ${round1(cpu[name]! - (cpuAtStart[name] ?? 0))}`).join(", ")}; server RSS ${rssAtStart} → ${peakRss} MB`);
  return { probe, page: pagePolls, rssPeak: peakRss };
}

function latencyFigures<Prefix extends string>(prefix: Prefix, latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) => round1(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN);
  return {
    [`${prefix}s`]: sorted.length, [`${prefix}_p50_ms`]: pct(0.5), [`${prefix}_p95_ms`]: pct(0.95), [`${prefix}_max_ms`]: round1(sorted.at(-1) ?? Number.NaN),
  } as Record<`${Prefix}s` | `${Prefix}_p50_ms` | `${Prefix}_p95_ms` | `${Prefix}_max_ms`, number>;
}

/** CPU seconds (user + system) so far of the server, its worker process, Chromium (every process) and the model server. */
function cpuSeconds(): Record<string, number> {
  const seconds: Record<string, number> = { server: 0, worker: 0, browser: 0, model: 0 };
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      const name = Number(pid) === server.pid ? "server" : Number(fields[1]) === server.pid ? "worker" : cmdline.includes("chromium") ? "browser" : Number(pid) === model.pid ? "model" : null;
      // utime and stime, in clock ticks (100 a second on Linux).
      if (name) seconds[name]! += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return seconds;
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
