import { mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, sep } from "node:path";

/**
 * An agent's process group is recorded in a file while it runs (removed when it ends), so that a Skillboard that
 * died without cleaning up (kill -9, power loss) does not leave it running for good: the next process to take the
 * item kills what is left first.
 */
export function recordAgentGroup(groupFile: string, pgid: number): void {
  mkdirSync(dirname(groupFile), { recursive: true });
  writeFileSync(groupFile, `${pgid}\n`);
}

/** Never throws: it runs as an agent ends, where an error would have no one to go to. */
export function forgetAgentGroup(groupFile: string): void {
  try {
    rmSync(groupFile, { force: true });
  } catch {
    // A stale record is harmless: it is only acted on for a group still working in the item's workspace.
  }
}

/**
 * Kills the process group a dead Skillboard's agent left running for this item, if any. Only a group with a member
 * still working in `workspace` is killed: the number may belong to something else by now (after a reboot).
 * Returns whether a group was killed.
 */
export function killLeftoverAgentGroup(groupFile: string, workspace: string): boolean {
  let pgid: number;
  try {
    pgid = Number(readFileSync(groupFile, "utf8").trim());
  } catch {
    return false; // no file: nothing was left running
  }
  forgetAgentGroup(groupFile);
  if (!Number.isInteger(pgid) || pgid <= 1 || !groupWorksIn(pgid, workspace)) return false;
  try {
    process.kill(-pgid, "SIGKILL");
    return true;
  } catch {
    return false; // gone meanwhile
  }
}

/** Whether some process of group `pgid` has its working directory in `workspace` (Linux /proc; elsewhere: no). */
function groupWorksIn(pgid: number, workspace: string): boolean {
  let root: string;
  let pids: string[];
  try {
    root = realpathSync(workspace);
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return false;
  }
  for (const pid of pids) {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; the command may contain spaces or parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== pgid) continue;
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === root || cwd.startsWith(root + sep)) return true;
    } catch {
      // gone, or another user's process
    }
  }
  return false;
}
