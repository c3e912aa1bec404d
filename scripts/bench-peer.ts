/**
 * The performance issue's side-by-side benchmark, with its targets checked: ../shared/bench/peer-bench.sh (its own
 * stub model server, a new dataset per scale, the seed's run_batch run after ours) at the issue's three scales, with the
 * CLI started either or both of the ways users start it.
 *
 *   npm run bench:peer -- [--launcher npm|direct|both] [--rounds 1] [--scales 2000/64/100,5000/256/200,20000/256/50]
 *                         [--peer-bench ../shared/bench/peer-bench.sh]
 *
 * Launchers: `npm` runs `npm run -s cli -- run …`, so npm's own start (0.18–0.27 s and ~0.3 s of CPU on the machine
 * this was written on) counts in every figure; `direct` runs `scripts/cli.mjs run …`, the package's bin (what an
 * installed `skillboard` and `npx skillboard` run, the latter after npm's own start), by its `#!/usr/bin/env -S node …`
 * line. Each run of ours gets a new database. One JSON line per runner and run on stdout (peer-bench.sh's own, with the
 * round and launcher added); per round, a table and the targets on stderr.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { CLI_NODE_FLAGS } from "../lib/cli/node-flags";
import { ISSUE_SCALES, log, parseScales, printTable, round, type Scale } from "./bench-table";

const LAUNCHERS = { npm: "npm run -s cli --", direct: "./scripts/cli.mjs" } as const;
type Launcher = keyof typeof LAUNCHERS;

const { values } = parseArgs({
  options: {
    launcher: { type: "string", default: "both" },
    rounds: { type: "string", default: "1" },
    scales: { type: "string", default: ISSUE_SCALES },
    "peer-bench": { type: "string", default: resolve("..", "shared", "bench", "peer-bench.sh") },
  },
});
const launchers: Launcher[] = values.launcher === "both" ? ["npm", "direct"] : [values.launcher as Launcher];
if (!launchers.every((launcher) => launcher in LAUNCHERS)) throw new Error(`--launcher: "${values.launcher}" is not npm, direct or both`);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: "${values.rounds}" is not a positive integer`);
const scales = parseScales(values.scales);
const peerBench = values["peer-bench"];
if (!existsSync(peerBench)) throw new Error(`--peer-bench: ${peerBench} not found (it comes with the shared benchmark folder)`);

/** One runner's figures, as peer-bench.sh writes them. */
interface PeerRow {
  runner: string;
  n: number;
  concurrency: number;
  exit: number;
  wall_s: number;
  wall_over_ideal: number;
  window_s: number;
  window_over_ideal: number;
  before_first_request_s: number;
  peak_rss_mb: number;
  cpu_s: number;
  max_in_flight: number;
}

interface Measured extends Scale {
  ours: PeerRow;
  seed: PeerRow;
}

function measure(scale: Scale, launcher: Launcher, round: number): Measured {
  const { n, c, l } = scale;
  // peer-bench.sh's own folder (its dataset, stub and runner logs) inside ours, so that it goes with it.
  const folder = join(work, `${launcher}-${round}-${n}`);
  const db = join(folder, "ours.db");
  const summary = join(folder, "rows.jsonl"); // peer-bench.sh keeps its own summary.jsonl there, and copies it here
  const oursCmd = `cd ${quote(ROOT)} && env DATABASE_URL=${quote(`file:${db}`)} ${LAUNCHERS[launcher]} run --dataset {dataset} `
    + `--skill ${quote(skill)} --model stub --base-url {base_url} --concurrency {concurrency}`;
  log(`round ${round}, ${launcher}: ${n} / ${c} / ${l} ms`);
  const result = spawnSync("bash", [peerBench], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, N: String(n), C: String(c), L: String(l), RUNNERS: "ours seed", OURS_CMD: oursCmd, SUMMARY_JSON: summary, WORK: folder },
  });
  const rows = existsSync(summary) ? readFileSync(summary, "utf8").trim().split("\n").map((line) => JSON.parse(line) as PeerRow) : [];
  const ours = rows.find((row) => row.runner === "ours");
  const seed = rows.find((row) => row.runner === "seed");
  const failed = result.status !== 0 || !ours || !seed || ours.exit !== 0 || seed.exit !== 0;
  const oursStderr = failed && existsSync(join(folder, "ours.stderr")) ? readFileSync(join(folder, "ours.stderr"), "utf8").slice(-3000) : "";
  rmSync(folder, { recursive: true, force: true });
  if (failed) {
    throw new Error(
      `${n}/${c}/${l} (${launcher}): peer-bench.sh exited ${result.status}, ours ${ours?.exit}, seed ${seed?.exit}\n`
        + `${result.stderr.toString().slice(-3000)}\nours' stderr:\n${oursStderr}`,
    );
  }
  for (const row of [ours, seed]) process.stdout.write(`${JSON.stringify({ round, launcher, ...row })}\n`);
  return { ...scale, ours, seed };
}

const COLUMNS = ["runner", "n", "wall_s", "wall_over_ideal", "window_over_ideal", "pre_s", "cpu_s", "cpu_ms_per_item", "peak_rss_mb", "items_per_window_s", "max_in_flight"];

function tableRow(row: PeerRow): Record<string, unknown> {
  return {
    ...row,
    pre_s: row.before_first_request_s,
    cpu_ms_per_item: round((row.cpu_s * 1000) / row.n),
    peak_rss_mb: Math.round(row.peak_rss_mb),
    items_per_window_s: Math.round(row.n / row.window_s),
  };
}

/** The issue's targets (those this benchmark measures), each with its figure and whether it is met. */
function targets(measured: readonly Measured[]): string[] {
  const at = (n: number, c: number) => measured.find((m) => m.n === n && m.c === c);
  const lines: string[] = [];
  const check = (label: string, figure: string, met: boolean) => lines.push(`  ${met ? "met    " : "NOT MET"}  ${label}: ${figure}`);
  const small = at(2000, 64);
  if (small) {
    check("2000 items: window / ideal <= 1.08", String(small.ours.window_over_ideal), small.ours.window_over_ideal <= 1.08);
    check("2000 items: wall / ideal <= 1.25", String(small.ours.wall_over_ideal), small.ours.wall_over_ideal <= 1.25);
    check("2000 items: wall below the seed's", `${small.ours.wall_s} s against ${small.seed.wall_s} s`, small.ours.wall_s < small.seed.wall_s);
  }
  const middle = at(5000, 256);
  if (middle) {
    check("5000 items: window / ideal <= 1.25", String(middle.ours.window_over_ideal), middle.ours.window_over_ideal <= 1.25);
    check("5000 items: wall below the seed's", `${middle.ours.wall_s} s against ${middle.seed.wall_s} s`, middle.ours.wall_s < middle.seed.wall_s);
    check("5000 items: 256 requests in flight", String(middle.ours.max_in_flight), middle.ours.max_in_flight >= 256);
  }
  const large = at(20000, 256);
  if (large) {
    const speedup = (large.seed.window_s / large.ours.window_s);
    check("20000 items: items/s (N / window) >= 3 x the seed's", `${round(speedup)} x`, speedup >= 3);
    const perItem = (large.ours.cpu_s * 1000) / large.n;
    check("20000 items: CPU per item <= 0.5 ms", `${round(perItem)} ms`, perItem <= 0.5);
    check("20000 items: peak RSS < 300 MB", `${Math.round(large.ours.peak_rss_mb)} MB`, large.ours.peak_rss_mb < 300);
    if (small) {
      const ratio = large.ours.peak_rss_mb / small.ours.peak_rss_mb;
      check("20000 items: peak RSS <= 1.3 x the 2000-item run's", `${round(ratio)} x`, ratio <= 1.3);
    }
  }
  return lines.length > 0 ? lines : ["  (none of the issue's scales was measured: no target checked)"];
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

const ROOT = process.cwd();
const work = mkdtempSync(join(tmpdir(), "skillboard-bench-peer-"));
const skill = join(ROOT, "tests", "fixtures", "skills", "searchqa-trained.md");
try {
  // The bundle built and its compile cache filled here, not inside the first measured run.
  spawnSync(process.execPath, [...CLI_NODE_FLAGS, "scripts/cli.mjs", "__warm-compile-cache"], { stdio: "ignore", env: { ...process.env, DATABASE_URL: `file:${join(work, "warm.db")}` } });
  for (let round = 1; round <= rounds; round++) {
    for (const launcher of launchers) {
      const measured = scales.map((scale) => measure(scale, launcher, round));
      printTable(measured.flatMap(({ ours, seed }) => [ours, seed].map(tableRow)), COLUMNS);
      for (const line of targets(measured)) log(line);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
