import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The fake agents (tests/fixtures/agents/*.mjs) and the config file that declares them. */
export const AGENTS_DIR = fileURLToPath(new URL("../fixtures/agents/", import.meta.url));
export const AGENTS_CONFIG = `${AGENTS_DIR}skillboard.config.json`;

/**
 * Whether a process with this pid is still running: kill 0 throws ESRCH once it is gone. A killed process
 * whose parent already exited waits as a zombie (state Z) until init reaps it, which a container's init may
 * do only every few seconds: it runs no more, so it counts as gone.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state …"; the command may contain spaces or parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * Whether nothing has moved to end this process: it is alive, no signal waits to be delivered to it, and it has not
 * begun to exit (Linux: SigPnd and ShdPnd of /proc/<pid>/status, the PF_EXITING flag of /proc/<pid>/stat). kill(2)
 * queues its signal before it returns, so right after whatever could have stopped the process has run, this tells
 * whether it did, without sleeping to see.
 */
export function untouched(pid: number): boolean {
  if (!processAlive(pid)) return false;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const pending = [...status.matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm)].map((match) => BigInt(`0x${match[1]}`));
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const flags = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[6]);
    const PF_EXITING = 0x4;
    return pending.length === 2 && pending.every((mask) => mask === 0n) && (flags & PF_EXITING) === 0;
  } catch {
    return false; // gone meanwhile
  }
}

/** Waits until none of the pids is alive; false if some still is after `timeoutMs`. */
export async function allGone(pids: number[], timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(processAlive)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/** Pids a fake agent wrote to a file (one per line), waiting for the file to appear. */
export async function readPids(path: string, timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(path)) {
      const pids = readFileSync(path, "utf8").split(/\s+/).filter(Boolean).map(Number);
      if (pids.length > 0 && pids.every(Number.isInteger)) return pids;
    }
    if (Date.now() > deadline) throw new Error(`${path} was not written`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
