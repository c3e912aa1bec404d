import { execFileSync } from "node:child_process";

/**
 * The dashboard's worker process (lib/workers/worker-process.ts): the child of the server at `serverPid` running
 * `cli.mjs worker`, once it is there (other than `not`, a child the caller saw die).
 */
export async function dashboardWorkerPid(serverPid: number, not?: number): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    let pids: number[] = [];
    try {
      pids = execFileSync("pgrep", ["-P", String(serverPid), "-f", "cli.mjs worker"], { encoding: "utf8" }).trim().split("\n").map(Number);
    } catch {
      // pgrep exits 1 when nothing matches yet
    }
    const found = pids.find((pid) => pid > 0 && pid !== not);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no worker process under server ${serverPid}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
