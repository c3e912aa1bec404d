// What a Skillboard killed outright left running is ended by the next process to take the item, but only a group
// that is still at work in that item's workspace: a recorded number may belong to something else by now.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { killLeftoverAgentGroup, recordAgentGroup } from "@/lib/agent";
import { allGone, untouched } from "../support/agents";

let dir: string;
const spawned: number[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "skillboard-groups-"));
});
afterEach(() => {
  for (const pid of spawned.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A detached process (its own group) working in `cwd`, like an agent a dead Skillboard left behind. */
function leftover(cwd: string): number {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { cwd, detached: true, stdio: "ignore" });
  child.unref();
  spawned.push(child.pid!);
  return child.pid!;
}

describe("killLeftoverAgentGroup", () => {
  it("kills the recorded group when it works in the item's workspace, and forgets the record", async () => {
    const workspace = mkdtempSync(join(dir, "ws-"));
    const groupFile = join(dir, "groups", "item");
    const pid = leftover(workspace);
    recordAgentGroup(groupFile, pid);
    expect(killLeftoverAgentGroup(groupFile, workspace)).toBe(true);
    expect(await allGone([pid])).toBe(true);
    expect(existsSync(groupFile)).toBe(false);
  });

  it("leaves alone a group that works elsewhere, and does nothing without a record", async () => {
    const workspace = mkdtempSync(join(dir, "ws-"));
    const elsewhere = mkdtempSync(join(dir, "other-"));
    const groupFile = join(dir, "groups", "item");
    const pid = leftover(elsewhere);
    recordAgentGroup(groupFile, pid);
    expect(killLeftoverAgentGroup(groupFile, workspace)).toBe(false);
    // Any kill it sent would be pending by now (it is synchronous), so no wait is needed to see that it sent none.
    expect(untouched(pid)).toBe(true);
    expect(killLeftoverAgentGroup(join(dir, "groups", "none"), workspace)).toBe(false);
  });
});
