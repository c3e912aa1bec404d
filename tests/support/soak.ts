/**
 * The soak test (`npm run soak`, and a small configuration in the suite): a run of thousands of items executed by the
 * production dashboard server (`next start`) against the test model server answering with a seeded mix of 429s (with
 * Retry-After), 500s, hangs, malformed and cut-off bodies, while the server is killed with SIGKILL at seeded random
 * moments and restarted. Then a few more runs in the last server, for its memory. It checks what a user relies on:
 * every run ends completed with exactly one result per item, seq 1..N, the run row's counters equal to its rows, no
 * unhandled rejection or uncaught exception in any server log, and RSS not growing run over run. Loopback only.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addSkillVersion, getRun, importDataset, openDatabase, type Db } from "@/lib/db";
import { createRunFor } from "@/lib/rollout";
import { RunSettingsSchema } from "@/lib/runs";
import { seededRandom } from "@/lib/stats/random";
import { startAppServer, type AppServer } from "./app-server";
import { faultAtRandom, startFakeOpenAIServer, type Fault } from "./fake-openai-server";

export interface SoakOptions {
  items: number;
  /** SIGKILLs of the server during the first run. */
  kills: number;
  /** Runs after the first, in the last server, to see its memory run over run. */
  extraRuns: number;
  seed: number;
  concurrency: number;
  /** The model server's latency per answer. */
  latencyMs: number;
  /** Everything must be done by then, or the soak fails. */
  maxSeconds: number;
  log?: (line: string) => void;
}

export const DEFAULT_SOAK: SoakOptions = { items: 3000, kills: 4, extraRuns: 3, seed: 1, concurrency: 32, latencyMs: 20, maxSeconds: 300 };

/** The mix the audit used (20 % 429, 5 % 500, 2 % hangs, 2 % malformed bodies), plus 1 % bodies cut off mid-way. */
const FAULTS: { rate: number; fault: Fault }[] = [
  { rate: 0.2, fault: { kind: "status", status: 429, retryAfter: "1" } },
  { rate: 0.05, fault: { kind: "status", status: 500 } },
  { rate: 0.02, fault: { kind: "hang" } },
  { rate: 0.02, fault: { kind: "malformed" } },
  { rate: 0.01, fault: { kind: "cut" } },
];

export interface SoakRunFigures {
  runId: number;
  seconds: number;
  results: number;
  byStatus: Record<string, number>;
  /**
   * The server's resident memory during the run (MB, sampled every 200 ms): its floor (the lowest sample, what is left
   * after collections: a leak raises it run over run) and its peak.
   */
  rssFloorMb: number;
  rssPeakMb: number;
}

export interface SoakReport {
  problems: string[];
  seconds: number;
  /** How many results the first run had stored at each kill. */
  killedAt: number[];
  runs: SoakRunFigures[];
  modelRequests: { total: number; byStatus: Record<number, number> };
}

const LOG_FAILURES = /unhandled ?rejection|uncaught ?exception/i;

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const deadline = started + options.maxSeconds * 1000;
  const random = seededRandom(options.seed);
  const problems: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "skillboard-soak-"));
  const databaseUrl = `file:${join(dir, "soak.db")}`;
  const fake = await startFakeOpenAIServer({ latencyMs: options.latencyMs, recordRequests: false, faults: faultAtRandom(options.seed, FAULTS) });
  const db = openDatabase(databaseUrl);
  const logs: string[] = [];
  let server: AppServer | undefined;
  const start = async () => {
    server = await startAppServer({ env: { DATABASE_URL: databaseUrl } });
    return server;
  };
  let onCleanup = () => {};
  const report: SoakReport = { problems, seconds: 0, killedAt: [], runs: [], modelRequests: { total: 0, byStatus: {} } };
  try {
    const items = Array.from({ length: options.items }, (_, i) => ({
      id: `soak-${i}`, question: `Soak question ${i} [[ANSWER: A${i}]]`, context: `[DOC] [TLE] A${i} [PAR] Passage ${i}.`, answers: [`A${i}`],
    }));
    const dataset = await importDataset(db, { name: "soak", fileName: "soak.jsonl", format: "jsonl", hash: `soak-${options.seed}`, items });
    const { version } = await addSkillVersion(db, { name: "soak", content: "Answer with the passage title." });
    const queueRun = async () =>
      (await createRunFor(db, {
        datasetId: dataset.id, skillVersionId: version.id,
        config: {
          model: { backend: "openai", model: "soak-model", baseURL: fake.baseURL },
          // Short call timeouts: a hang costs 2 s, not the default 120 s.
          settings: RunSettingsSchema.parse({ concurrency: options.concurrency, execTimeoutS: 2, taskTimeoutS: 60, taskTimeoutGraceS: 0, maxRetries: 5 }),
        },
      })).id;

    const samples: number[] = [];
    const sampler = setInterval(() => {
      const rss = server ? rssOf(server.pid) : 0;
      if (rss > 0) samples.push(rss);
    }, 200);
    const memory = () => {
      if (samples.length === 0) samples.push(server ? rssOf(server.pid) : 0);
      const figures = { rssFloorMb: Math.round(Math.min(...samples) / 2 ** 20), rssPeakMb: Math.round(Math.max(...samples) / 2 ** 20) };
      samples.length = 0;
      return figures;
    };
    onCleanup = () => clearInterval(sampler);

    // The first run, through the kills: each at a seeded random point of its progress, a seeded moment after it.
    const runId = await queueRun();
    const killPoints = Array.from({ length: options.kills }, () => Math.floor((0.1 + 0.8 * random()) * options.items)).sort((a, b) => a - b);
    let runStarted = performance.now();
    await start();
    for (const point of killPoints) {
      await waitFor(db, runId, (run) => run.nDone >= point || run.status !== "running" && run.status !== "queued", deadline);
      await sleep(Math.floor(random() * 300));
      const done = (await getRun(db, runId)).nDone;
      logs.push(server!.logs());
      await server!.kill();
      report.killedAt.push(done);
      log(`killed the server (SIGKILL) with ${done}/${options.items} results stored; restarting`);
      await start();
    }
    await waitFor(db, runId, (run) => run.status !== "running" && run.status !== "queued", deadline);
    report.runs.push({ ...(await checkRun(db, runId, options.items, (performance.now() - runStarted) / 1000, problems)), ...memory() });
    log(`run ${runId}: ${JSON.stringify(report.runs.at(-1))}`);

    for (let extra = 0; extra < options.extraRuns; extra += 1) {
      runStarted = performance.now();
      const extraId = await queueRun();
      await waitFor(db, extraId, (run) => run.status !== "running" && run.status !== "queued", deadline);
      report.runs.push({ ...(await checkRun(db, extraId, options.items, (performance.now() - runStarted) / 1000, problems)), ...memory() });
      log(`run ${extraId}: ${JSON.stringify(report.runs.at(-1))}`);
    }
    checkMemory(report.runs.slice(1), problems);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  } finally {
    onCleanup();
    if (server) logs.push(server.logs());
    await server?.stop().catch(() => {});
    const stats = fake.stats();
    report.modelRequests = { total: stats.requests, byStatus: stats.byStatus };
    await fake.close();
    await db.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
  const failures = logs.join("\n").split("\n").filter((line) => LOG_FAILURES.test(line));
  if (failures.length > 0) problems.push(`the server logs hold ${failures.length} unhandled rejection(s) or uncaught exception(s), e.g. ${failures[0]}`);
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

async function waitFor(db: Db, runId: number, done: (run: Awaited<ReturnType<typeof getRun>>) => boolean, deadline: number): Promise<void> {
  for (;;) {
    if (done(await getRun(db, runId))) return;
    if (performance.now() > deadline) throw new Error(`run ${runId} did not get there before the soak's time limit`);
    await sleep(100);
  }
}

/** Exactly one result per item, seq 1..N, and the run row's counters equal to the rows. */
async function checkRun(db: Db, runId: number, items: number, seconds: number, problems: string[]): Promise<Omit<SoakRunFigures, "rssFloorMb" | "rssPeakMb">> {
  const run = await getRun(db, runId);
  const rows = await db.runResult.findMany({ where: { runId }, orderBy: { seq: "asc" } });
  const problem = (text: string) => problems.push(`run ${runId}: ${text}`);
  if (run.status !== "completed") problem(`ended ${run.status}${run.error ? ` (${run.error})` : ""}`);
  if (rows.length !== items) problem(`${rows.length} results for ${items} items`);
  const ids = new Set(rows.map((row) => row.itemId));
  if (ids.size !== rows.length) problem(`${rows.length - ids.size} items have more than one result`);
  const missing = Array.from({ length: items }, (_, i) => `soak-${i}`).filter((id) => !ids.has(id));
  if (missing.length > 0) problem(`${missing.length} items have no result (e.g. ${missing[0]})`);
  if (rows.some((row, index) => row.seq !== index + 1)) problem("seq is not 1..N");
  const conversations = await db.runItemConversation.count({ where: { runId } });
  if (conversations !== rows.length) problem(`${conversations} conversations for ${rows.length} results`);
  const sum = (pick: (row: (typeof rows)[number]) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const counters: [string, number, number][] = [
    ["nDone", run.nDone, rows.length],
    ["nErrors", run.nErrors, rows.filter((row) => row.status === "error").length],
    ["nTimeouts", run.nTimeouts, rows.filter((row) => row.status === "timeout").length],
    ["nAgentOk", run.nAgentOk, rows.filter((row) => row.agentOk).length],
    ["emSum", run.emSum, sum((row) => row.em)],
    ["f1Sum", run.f1Sum, sum((row) => row.f1)],
    ["subEmSum", run.subEmSum, sum((row) => row.subEm)],
    ["promptTokens", run.promptTokens, sum((row) => row.promptTokens)],
    ["completionTokens", run.completionTokens, sum((row) => row.completionTokens)],
    ["retries", run.retries, sum((row) => row.retries)],
  ];
  for (const [name, counter, fromRows] of counters) if (Math.abs(counter - fromRows) > 1e-6) problem(`${name} is ${counter} but the rows give ${fromRows}`);
  const byStatus: Record<string, number> = {};
  for (const row of rows) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
  return { runId, seconds: Math.round(seconds * 10) / 10, results: rows.length, byStatus };
}

/**
 * Memory run over run, in one server: after its first run there (heap grown to its working size, modules loaded) the
 * floor of the server's RSS must stay within 25 % + 30 MB of that run's. Peaks come and go with collections (they
 * varied by ±90 MB between runs of 1,000 items); a leak raises the floor run after run.
 */
function checkMemory(runs: SoakRunFigures[], problems: string[]): void {
  const first = runs[0];
  if (first === undefined) return;
  const limit = first.rssFloorMb * 1.25 + 30;
  if (runs.some((run) => run.rssFloorMb > limit)) {
    problems.push(`server RSS grew run over run: floors ${runs.map((r) => `${r.rssFloorMb} MB`).join(" → ")} (limit ${Math.round(limit)} MB)`);
  }
}

function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
