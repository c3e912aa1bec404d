// Every CLI process runs with the project's V8 flags (lib/cli/node-flags.ts), however it is started: `npm run -s cli`,
// `npx skillboard`, and the dashboard's worker process. Each is started as a long-lived `worker` and its node process
// found by its command line.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { CLI_NODE_FLAGS } from "@/lib/cli/node-flags";
import { startWorkerProcess } from "@/lib/workers/worker-process";
import { createTestDb } from "../support/test-db";

const t = createTestDb();
afterAll(() => t.close());

interface NodeProcess { pid: number; ppid: number; argv: string[] }

const CLI_SCRIPT = /(^|\/)(cli\.mjs|skillboard)$/;
/** The script node runs: its first argument that is not a flag (npx's own node runs /usr/bin/npx). */
const scriptOf = (argv: string[]) => argv.slice(1).find((arg) => !arg.startsWith("-"));

/** The node processes running the CLI's `worker`, as /proc shows them. */
function cliWorkers(): NodeProcess[] {
  const found: NodeProcess[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean);
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1]);
      if (/(^|\/)node$/.test(argv[0] ?? "") && CLI_SCRIPT.test(scriptOf(argv) ?? "") && argv.includes("worker")) {
        found.push({ pid: Number(entry), ppid, argv });
      }
    } catch {
      // the process ended while it was being read
    }
  }
  return found;
}

async function waitFor(match: (p: NodeProcess) => boolean): Promise<NodeProcess> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = cliWorkers().find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error("the CLI's worker process did not appear");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The flags node was given: what comes before the script. */
const nodeFlags = (p: NodeProcess) => p.argv.slice(1, p.argv.indexOf(scriptOf(p.argv)!));

describe("the CLI's V8 flags", () => {
  it.each([
    ["npm run -s cli", ["npm", "run", "-s", "cli", "--"]],
    ["npx skillboard", ["npx", "--no-install", "skillboard"]],
  ])("reach node when the CLI is started as `%s`", async (_, command) => {
    const name = `flags-${process.pid}-${command[0]}`;
    const child = spawn(command[0]!, [...command.slice(1), "worker", "--name", name], {
      env: { ...process.env, DATABASE_URL: t.url }, stdio: "ignore", detached: true,
    });
    try {
      const worker = await waitFor((p) => p.argv.includes(name));
      expect(nodeFlags(worker)).toEqual([...CLI_NODE_FLAGS]);
    } finally {
      process.kill(-child.pid!, "SIGKILL");
    }
  });

  it("reach the dashboard's worker process", async () => {
    const previous = process.env.DATABASE_URL;
    process.env.DATABASE_URL = t.url;
    const workers = startWorkerProcess({ log: () => undefined });
    try {
      const worker = await waitFor((p) => p.ppid === process.pid);
      expect(nodeFlags(worker)).toEqual([...CLI_NODE_FLAGS]);
    } finally {
      await workers.stop();
      process.env.DATABASE_URL = previous;
    }
  });
});
