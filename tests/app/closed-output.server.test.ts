/**
 * `npm start 2>&1 | head -2`: once the reader of the server's output goes away, the server keeps answering (logging
 * to a closed pipe must not take it down or spin it), and SIGTERM still stops it within seconds, leaving its runs
 * resumable. The real production start command, its stdout and stderr on one operating-system pipe (a FIFO).
 */

import { spawn, type ChildProcess, execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { once } from "node:events";
import { open } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/lib/db";
import { createRunFor } from "@/lib/rollout";
import { RunSettingsSchema } from "@/lib/runs";
import { freePort, isPortFree, PROJECT_DIR } from "../auth/server-process";
import { BUILD_TIMEOUT_MS, ensureBuild } from "../support/app-server";

const NEXT_BIN = join(PROJECT_DIR, "node_modules", ".bin", "next");

// `npm start` (scripts/start.mjs, which runs next start), and `next start` run directly (as a supervisor may).
describe.each([
  { how: "npm start", command: () => ["scripts/start.mjs"], env: (port: number) => ({ PORT: String(port) }) },
  { how: "next start", command: (port: number) => [NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(port)], env: () => ({}) },
])("$how 2>&1 | head -2", ({ command, env: commandEnv }) => {
  let dir: string;
  let port: number;
  let launcher: ChildProcess;
  let db: Db;
  const exited = () => launcher.exitCode !== null || launcher.signalCode !== null;

  beforeAll(async () => {
    await ensureBuild();
    dir = mkdtempSync(join(tmpdir(), "skillboard-closed-output-"));
    port = await freePort();
    const fifo = join(dir, "output");
    execFileSync("mkfifo", [fifo]);
    const opening = open(fifo, "r");
    const writeEnd = openSync(fifo, "w");
    const reader = await opening;
    const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
    launcher = spawn(process.execPath, command(port), {
      cwd: PROJECT_DIR,
      env: { ...env, ...commandEnv(port), DATABASE_URL: `file:${join(dir, "t.db")}` } as Record<string, string> as NodeJS.ProcessEnv,
      stdio: ["ignore", writeEnd, writeEnd], // 2>&1
      detached: true, // its own process group, so that nothing survives the test
    });
    closeSync(writeEnd);
    // `| head -2`: two lines, then the pipe is closed.
    let text = "";
    for await (const chunk of reader.createReadStream({ encoding: "utf8" })) {
      text += chunk as string;
      if (text.split("\n").length > 2) break;
    }
    await reader.close().catch(() => {});
    expect(text).toContain("Next.js");
    await waitUntilAnswering(60_000);
    db = openDatabase(`file:${join(dir, "t.db")}`);
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await db?.$disconnect();
    try {
      process.kill(-launcher.pid!, "SIGKILL");
    } catch {
      // already gone
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function waitUntilAnswering(withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      if (exited()) throw new Error(`the server exited (code ${launcher.exitCode}, signal ${launcher.signalCode})`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/auth/check`, { signal: AbortSignal.timeout(5_000) });
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error("the server did not answer");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** CPU seconds the process has used (user + system), from /proc. */
  function cpuSeconds(pid: number): number {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  }

  /** The next-server process: the launcher's only child, or the process itself when next start runs directly. */
  function serverPid(): number {
    if (command(port)[0] === NEXT_BIN) return launcher.pid!;
    const children = readFileSync(`/proc/${launcher.pid}/task/${launcher.pid}/children`, "utf8").trim().split(/\s+/).map(Number);
    expect(children.length).toBe(1);
    return children[0]!;
  }

  const baselineRun = (limit: number) =>
    createRunFor(db, { datasetId: 1, skillVersionId: 2, config: { model: { backend: "baseline" }, settings: RunSettingsSchema.parse({ limit }) } });

  describe("the server after the reader of its output went away", () => {
    it("keeps answering while it logs, without spinning", async () => {
      // Each run the worker finishes is logged ("run N: completed"); the demo was seeded and logged at start.
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await baselineRun(5));
      const deadline = Date.now() + 30_000;
      while ((await db.run.count({ where: { status: "completed" } })) < runs.length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(await db.run.count({ where: { status: "completed" } })).toBe(runs.length);

      const pid = serverPid();
      const before = cpuSeconds(pid);
      const started = Date.now();
      for (let i = 0; i < 5; i++) {
        const answered = Date.now();
        const response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5_000) });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        expect(Date.now() - answered).toBeLessThan(3_000);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // Idle but for five page loads: far from a core busy writing errors.
      expect((cpuSeconds(pid) - before) / ((Date.now() - started) / 1000)).toBeLessThan(0.5);
    }, 60_000);

    it("stops within a few seconds of SIGTERM, leaving a run under way resumable", async () => {
      const run = await baselineRun(50);
      // A request under way that never completes (its body never arrives): Next's own shutdown waits for it.
      const held = connect(port, "127.0.0.1");
      await once(held, "connect");
      held.on("error", () => {});
      held.write(`POST /api/auth/signin HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"tok`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stopped = new Promise<void>((resolve) => launcher.once("exit", () => resolve()));
      launcher.kill("SIGTERM");
      const outcome = await Promise.race([stopped.then(() => "stopped"), new Promise((resolve) => setTimeout(resolve, 8_000, "still running"))]);
      expect(outcome).toBe("stopped");
      expect(await isPortFree(port)).toBe(true);
      const after = await db.run.findUniqueOrThrow({ where: { id: run.id } });
      // Finished, or left for the next start to resume; never failed by the stop.
      expect(["completed", "running", "queued"]).toContain(after.status);
      held.destroy();
    }, 30_000);
  });
});
