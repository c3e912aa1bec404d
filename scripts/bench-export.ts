/**
 * Export benchmark: fills a 100,000-item run through the ResultWriter, starts the production server on it, downloads
 * each format over HTTP and reports, per format, time to first byte, total time, bytes, and the server's peak RSS
 * (sampled from /proc every 20 ms) against its RSS measured just before the downloads (the baseline).
 *
 *   npm run bench:export [-- --items N]
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
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

async function main(): Promise<void> {
  const server = await startAppServer();
  try {
    const db = openDatabase(server.databaseUrl);
    const started = Date.now();
    const { runId } = await writeGeneratedRun(db, makeItemResults(ITEMS, { seed: 3 }));
    await db.$disconnect();
    console.error(`filled a ${ITEMS}-item run in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const pid = serverPid(server.port);
    // Warm the route (first request compiles nothing in production, but loads modules), then measure the baseline.
    await (await fetch(`${server.baseURL}/api/runs/${runId}/summary`)).arrayBuffer();
    const baseline = rssOf(pid);
    console.log(`server baseline RSS ${mb(baseline)}`);
    for (const query of ["format=csv", "format=jsonl", "format=seed", "format=csv&filter=failing", "format=jsonl&filter=all&sort=f1&dir=desc"]) {
      let peak = rssOf(pid);
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
      const t0 = performance.now();
      const response = await fetch(`${server.baseURL}/api/runs/${runId}/results?${query}`);
      const reader = response.body!.getReader();
      let first = 0;
      let bytes = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (!first) first = performance.now() - t0;
        bytes += value.byteLength;
      }
      const total = performance.now() - t0;
      clearInterval(sampler);
      peak = Math.max(peak, rssOf(pid));
      console.log(
        `${query.padEnd(44)} TTFB ${first.toFixed(0).padStart(5)} ms  total ${(total / 1000).toFixed(1).padStart(5)} s  ${mb(bytes).padStart(9)}  ` +
          `peak RSS ${mb(peak)} (×${(peak / baseline).toFixed(2)} baseline)`,
      );
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
