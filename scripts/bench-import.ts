/**
 * Import benchmark: what a large dataset upload does to everything else in the server process. Writes a JSONL file
 * of N items (default 600,000, ~170 MB) to a temp folder, posts it through the upload handler of POST /api/datasets
 * into a fresh database, and meanwhile measures, in the same process (as in the dashboard):
 * - the event loop: the longest gap between ticks of a 10 ms interval, and monitorEventLoopDelay's max;
 * - the database: a one-row write transaction started every 50 ms on the same client (what a run's ResultWriter
 *   does), and the longest any of them waited.
 *
 *   npm run bench:import [-- --items N]
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Readable } from "node:stream";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { handleDatasetUpload } from "@/app/api/datasets/dataset-upload";
import { addSkillVersion, openDatabase } from "@/lib/db";

const { values } = parseArgs({ options: { items: { type: "string", default: "600000" } } });
const ITEMS = Number(values.items);

async function writeDataset(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < count; i += 1) {
    const line = JSON.stringify({
      id: `q${i}`,
      question: `Which title belongs to clue number ${i}? (a question of ordinary length)`,
      answers: [`Answer ${i}`],
      context: `[DOC] [TLE] Answer ${i} [PAR] Passage about clue ${i}, long enough to look like a search snippet. [DOC] [TLE] Other ${i} [PAR] Unrelated text.`,
      category: `c${i % 7}`,
    });
    if (!out.write(`${line}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "skillboard-bench-import-"));
  try {
    const file = join(dir, "large.jsonl");
    await writeDataset(file, ITEMS);
    const bytes = statSync(file).size;
    const db = openDatabase(`file:${join(dir, "bench.db")}`);
    // A row the write probe can touch, as a run's writer touches its Run row.
    const { version } = await addSkillVersion(db, { name: "probe", content: "probe" });

    let longestTickGap = 0;
    let lastTick = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestTickGap = Math.max(longestTickGap, now - lastTick - 10);
      lastTick = now;
    }, 10);
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    // The gap between two completed probe writes, less the 50 ms pause: how long a run's next flush could be held up
    // (by the write lock, or by an event loop too busy to start it).
    let longestWriteWait = 0;
    let writes = 0;
    let probing = true;
    const probe = (async () => {
      let lastDone = performance.now();
      while (probing) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await db.$transaction([db.skillVersion.update({ where: { id: version.id }, data: { note: `probe ${writes}` } })]);
        const done = performance.now();
        longestWriteWait = Math.max(longestWriteWait, done - lastDone - 50);
        lastDone = done;
        writes += 1;
      }
    })();

    const started = performance.now();
    const body = Readable.toWeb(createReadStream(file, { highWaterMark: 64 * 1024 })) as ReadableStream<Uint8Array>;
    const request = new Request(`http://127.0.0.1/api/datasets?name=large&fileName=large.jsonl`, {
      method: "POST",
      body,
      headers: { "content-length": String(bytes) },
      duplex: "half",
    } as RequestInit);
    const response = await handleDatasetUpload(db, request, { maxBytes: 1024 * 1024 * 1024 });
    const elapsed = performance.now() - started;
    probing = false;
    await probe;
    clearInterval(ticker);
    histogram.disable();
    const answer = (await response.json()) as Record<string, unknown>;
    if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${JSON.stringify(answer).slice(0, 500)}`);
    console.log(
      `${ITEMS} items, ${(bytes / 1024 / 1024).toFixed(1)} MB JSONL: imported in ${(elapsed / 1000).toFixed(1)} s; ` +
        `longest event-loop stall ${longestTickGap.toFixed(0)} ms (monitorEventLoopDelay max ${(histogram.max / 1e6).toFixed(0)} ms); ` +
        `longest delay of a concurrent one-row write ${longestWriteWait.toFixed(0)} ms over ${writes} writes`,
    );
    await db.$disconnect();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
