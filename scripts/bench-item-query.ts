/**
 * Item explorer benchmark: fills a run with N generated results through the real ResultWriter (so the search index is
 * filled the way a rollout fills it), then times the exact functions the run page and the item page call, for every
 * filter, some sorts and deep pages, searches (trigram and the short-term scan) and prev/next.
 *
 *   npm run bench:items -- [--items 100000] [--reps 60] [--engine sqlite|postgresql|both]
 *
 * Data on stdout, one JSON line per case ({engine, case, p50_ms, p95_ms, max_ms, reps, total, rows}); progress on
 * stderr. PostgreSQL: a throwaway cluster (tests/support/pg-cluster.ts, Debian's `postgresql` package).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { getItemNeighbours, openDatabase, queryRunItems } from "../lib/db";
import { parseItemQuery, type ItemQuery } from "../lib/runs/item-query";
import { ERROR_MESSAGES, makeItemResults, writeGeneratedRun } from "../tests/support/item-fixtures";
import { startPgCluster } from "../tests/support/pg-cluster";

const { values } = parseArgs({
  options: { items: { type: "string", default: "100000" }, reps: { type: "string", default: "60" }, engine: { type: "string", default: "sqlite" } },
});
if (!["sqlite", "postgresql", "both"].includes(values.engine)) throw new Error(`--engine must be sqlite, postgresql or both, got "${values.engine}"`);
const N = Number(values.items);
const REPS = Number(values.reps);
const log = (line: string) => process.stderr.write(`${line}\n`);

for (const engine of values.engine === "both" ? (["sqlite", "postgresql"] as const) : [values.engine as "sqlite" | "postgresql"]) await bench(engine);

async function bench(engine: "sqlite" | "postgresql"): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "skillboard-bench-items-"));
  const dbFile = join(dir, "bench.db");
  const cluster = engine === "postgresql" ? await startPgCluster() : null;
  cluster?.psql("CREATE DATABASE bench_items");
  const db = openDatabase(cluster ? cluster.url("bench_items") : `file:${dbFile}`);
  const report = (name: string, sorted: number[], extra: { total: number; rows: number }) => reportCase(engine, name, sorted, extra);
  log(`— ${engine} —`);
  try {
    log(`generating ${N} results…`);
    const results = makeItemResults(N, { seed: 42 });
    const started = performance.now();
    const { runId } = await writeGeneratedRun(db, results, {
      onProgress: (written) => {
        if (written % 20_000 === 0) log(`  written ${written}/${N}`);
      },
    });
    const writeS = (performance.now() - started) / 1000;
    log(`written in ${writeS.toFixed(1)} s (${((writeS * 1e6) / N).toFixed(0)} µs per result, index included)`);
    if (engine === "sqlite") {
      // Checkpoint so the file size below is the database's, not the WAL's.
      await db.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
      console.log(JSON.stringify({ engine, case: "write", items: N, seconds: Number(writeS.toFixed(2)), db_mb: Number((statSync(dbFile).size / 1e6).toFixed(1)) }));
    } else {
      await db.$executeRawUnsafe(`VACUUM ANALYZE`);
      const [size] = await db.$queryRawUnsafe<{ bytes: bigint }[]>(`SELECT pg_database_size(current_database()) AS bytes`);
      console.log(JSON.stringify({ engine, case: "write", items: N, seconds: Number(writeS.toFixed(2)), db_mb: Number((Number(size!.bytes) / 1e6).toFixed(1)) }));
    }

    const q = (params: Record<string, string>): ItemQuery => parseItemQuery(params, { filter: "failing" });
    const middle = Math.floor(N / 2);
    const tableCases: [string, ItemQuery][] = [
      ...(["all", "failing", "correct", "wrong", "errors", "timeouts", "partial", "subem"] as const).map(
        (filter): [string, ItemQuery] => [`filter=${filter}`, q({ filter })],
      ),
      ["filter=errors&reason (one message)", q({ filter: "errors", reason: ERROR_MESSAGES[0]! })],
      ["filter=failing sort=latency desc", q({ filter: "failing", sort: "latency", dir: "desc" })],
      ["filter=failing sort=f1 desc", q({ filter: "failing", sort: "f1", dir: "desc" })],
      ["filter=failing sort=status", q({ filter: "failing", sort: "status", dir: "asc" })],
      ["filter=failing sort=question", q({ filter: "failing", sort: "question", dir: "asc" })],
      ["filter=all sort=predicted desc", q({ filter: "all", sort: "predicted", dir: "desc" })],
      ["filter=timeouts sort=gold", q({ filter: "timeouts", sort: "gold", dir: "asc" })],
      ["filter=all last page", q({ filter: "all", page: "100000" })],
      ["filter=all sort=latency last page", q({ filter: "all", sort: "latency", page: "100000" })],
      ["filter=all sort=question last page", q({ filter: "all", sort: "question", page: "100000" })],
      ["search 'Lincoln' (common, trigram)", q({ filter: "all", q: "Lincoln" })],
      ["search 'answer' (every response, trigram)", q({ filter: "failing", q: "answer" })],
      ["search 'river' sort=latency (trigram)", q({ filter: "all", q: "river", sort: "latency" })],
      [`search 'clue ${middle}' (one item, trigram)`, q({ filter: "all", q: `clue ${middle})` })],
      ["search 'zzqx' (no match, trigram)", q({ filter: "failing", q: "zzqx" })],
      ["search 'Ma' (2 chars, LIKE scan)", q({ filter: "failing", q: "Ma" })],
      ["search 'q' (1 char, LIKE scan)", q({ filter: "all", q: "q" })],
    ];
    for (const [name, query] of tableCases) {
      const page = await queryRunItems(db, runId, query);
      report(name, await time(() => queryRunItems(db, runId, query)), { total: page.total, rows: page.rows.length });
    }
    const neighbourCases: [string, ItemQuery][] = [
      ["neighbours filter=failing", q({ filter: "failing" })],
      ["neighbours filter=failing sort=latency", q({ filter: "failing", sort: "latency" })],
      ["neighbours filter=all sort=question", q({ filter: "all", sort: "question" })],
      ["neighbours search 'Lincoln'", q({ filter: "all", q: "Lincoln" })],
    ];
    const failing = results.find((result, index) => index > N / 2 && result.em === 0)!;
    for (const [name, query] of neighbourCases) {
      const item = query.q ? results.find((result, index) => index > N / 2 && result.question.includes("Lincoln"))! : failing;
      const found = await getItemNeighbours(db, runId, item.itemId, query);
      report(name, await time(() => getItemNeighbours(db, runId, item.itemId, query)), { total: found.total, rows: found.position ?? 0 });
    }
  } finally {
    await db.$disconnect();
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function time(work: () => Promise<unknown>): Promise<number[]> {
  await work(); // warm-up, not counted
  const samples: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b);
}

function reportCase(engine: string, name: string, sorted: number[], extra: { total: number; rows: number }): void {
  const at = (p: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(1));
  const line = { engine, case: name, p50_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1), reps: sorted.length, ...extra };
  console.log(JSON.stringify(line));
  log(`${name.padEnd(44)} p50 ${String(line.p50_ms).padStart(6)} ms   p95 ${String(line.p95_ms).padStart(6)} ms   (${extra.total} items)`);
}
