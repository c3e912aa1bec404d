/**
 * Export benchmark: fills a 100,000-item run (and a 10,000-item reference) through the ResultWriter, starts the
 * production server on them, downloads each format over HTTP and reports, per format and run, time to first byte,
 * total time, bytes, and the server's peak RSS (sampled from /proc every 20 ms) against a warmed baseline, and the
 * ratio of the large run's peak to the small one's.
 *
 *   npm run bench:export [-- --items N]
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { get } from "node:http";
import { parseArgs } from "node:util";
import { openDatabase } from "@/lib/db";
import { makeItemResults, writeGeneratedRun } from "../tests/support/item-fixtures";
import { startAppServer } from "../tests/support/app-server";

const { values } = parseArgs({ options: { items: { type: "string", default: "100000" } } });
const ITEMS = Number(values.items);

function rssOf(pid: number): number {
  let status = "";
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return 0;
  }
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** The process listening on the port (Next renames its process, so it is found by its socket, not its name). */
function serverPid(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === "0A" && fields[9]) inodes.add(`socket:[${fields[9]}]`);
    }
  }
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) if (inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return Number(pid);
    } catch {
      // another user's process, or gone
    }
  }
  throw new Error(`no process listens on port ${port}`);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const QUERIES = ["format=csv", "format=jsonl", "format=seed", "format=csv&filter=failing", "format=jsonl&filter=all&sort=f1&dir=desc"];

interface Download {
  ttfbMs: number;
  totalMs: number;
  bytes: number;
  peakRss: number;
}

/**
 * Downloads one export to the end over a fresh connection, sampling the server's RSS every 20 ms. Not fetch: its
 * pool would reuse the socket of the readiness check, which the server closed while the fill kept this process busy.
 */
async function download(url: string, pid: number): Promise<Download> {
  let peakRss = rssOf(pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(pid))), 20);
  const t0 = performance.now();
  let ttfbMs = 0;
  let bytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      get(url, { agent: false }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${url}: HTTP ${response.statusCode}`));
        response.on("data", (chunk: Buffer) => {
          if (!ttfbMs) ttfbMs = performance.now() - t0;
          bytes += chunk.byteLength;
        });
        response.on("end", resolve);
        response.on("error", reject);
      }).on("error", reject);
    });
  } finally {
    clearInterval(sampler);
  }
  return { ttfbMs, totalMs: performance.now() - t0, bytes, peakRss: Math.max(peakRss, rssOf(pid)) };
}

/**
 * Two runs in one server: a reference of a tenth of the items and the full one. Every export of the small run is
 * downloaded once first (modules loaded, heap grown to its working size), then the baseline RSS is taken, then each
 * format for the small run and the large one. Flat memory means the large run's peak is the small run's peak: the
 * "large / small" ratio, measured in the same process minutes apart, is the figure to read.
 */
async function main(): Promise<void> {
  const server = await startAppServer();
  try {
    const db = openDatabase(server.databaseUrl);
    const started = Date.now();
    const sizes = [Math.max(1, Math.round(ITEMS / 10)), ITEMS];
    const runIds: number[] = [];
    for (const size of sizes) runIds.push((await writeGeneratedRun(db, makeItemResults(size, { seed: 3 }))).runId);
    await db.$disconnect();
    console.error(`filled runs of ${sizes.join(" and ")} items in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const pid = serverPid(server.port);
    const url = (runId: number, query: string) => `${server.baseURL}/api/runs/${runId}/results?${query}`;
    for (const query of QUERIES) await download(url(runIds[0]!, query), pid);
    const baseline = rssOf(pid);
    console.log(`server baseline RSS ${mb(baseline)} (after one download of each export of the ${sizes[0]}-item run)`);
    for (const query of QUERIES) {
      const peaks: number[] = [];
      for (const [index, runId] of runIds.entries()) {
        const result = await download(url(runId, query), pid);
        peaks.push(result.peakRss);
        console.log(
          `${query.padEnd(44)} ${String(sizes[index]).padStart(7)} items  TTFB ${result.ttfbMs.toFixed(0).padStart(5)} ms  ` +
            `total ${(result.totalMs / 1000).toFixed(1).padStart(5)} s  ${mb(result.bytes).padStart(9)}  peak RSS ${mb(result.peakRss)} (×${(result.peakRss / baseline).toFixed(2)} baseline)`,
        );
      }
      console.log(`${query.padEnd(44)} peak RSS ${sizes[1]} items / ${sizes[0]} items: ×${(peaks[1]! / peaks[0]!).toFixed(2)}`);
    }
  } catch (error) {
    console.error(server.logs().slice(-4000));
    throw error;
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
