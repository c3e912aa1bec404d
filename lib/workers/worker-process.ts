/**
 * The dashboard's workers in a child process (`skillboard worker`, the CLI bundle): a run going at full speed keeps an
 * event loop busy, and in the server's own process it made every page and live poll wait behind it (a 20,000-item run
 * at 1,100 items/s: live poll p95 0.9 s, server RSS 189 → 511 MB; `npm run bench:dashboard`). The child shares the
 * database and the environment; the server tells it when work was queued, over the IPC channel. A child that dies is
 * started again (its runs resume: their leases name a process that is gone); one that dies at once, over and over, is
 * given up on with a message. When the server goes (even killed outright), the channel closes and the child releases
 * its runs and exits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { getPriority, setPriority } from "node:os";
import { join } from "node:path";
import { CLI_NODE_FLAGS } from "../cli/node-flags";
import { DEFAULT_DRAIN_MS } from "../rollout/queue-participation";
import { workerDrainSeconds, type Workers } from "./inline-workers";

/** The message that asks the child to look for work now. */
export const WAKE_MESSAGE = "wake";

const RESTART_DELAY_MS = 1_000;
/** A child that lived less than this is a failed start; this many in a row and the server stops trying. */
const QUICK_EXIT_MS = 5_000;
const MAX_QUICK_EXITS = 5;
/** After its drain time (the items in flight finishing, SKILLBOARD_WORKER_DRAIN_S), how long the child may take to exit. */
const STOP_GRACE_MS = 10_000;
/**
 * How much nicer than the server the child runs (0 = the server's own priority; 19 at most, the lowest there is),
 * SKILLBOARD_WORKER_NICE. A run at full speed takes every CPU it can get, and the pages and live polls then waited for
 * the scheduler behind it: on two cores, with the run's worker, the model server and the browser busy, live-poll p95
 * was 119 ms. Below the server, the run gets whatever the server does not use (a poll takes a few ms), and the pages
 * answer first.
 */
export function workerNiceness(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const value = Number(env.SKILLBOARD_WORKER_NICE ?? 10);
  return Number.isInteger(value) ? Math.min(19, Math.max(0, value)) : 10;
}

export interface WorkerProcessOptions {
  /** The CLI entry (scripts/cli.mjs, which builds the bundle if needed). */
  cliPath?: string;
  log?: (line: string) => void;
}

export function startWorkerProcess(options: WorkerProcessOptions = {}): Workers {
  const cliPath = options.cliPath ?? join(/*turbopackIgnore: true*/ process.cwd(), "scripts", "cli.mjs");
  const log = options.log ?? ((line: string) => console.error(line));
  let child: ChildProcess | null = null;
  let stopping = false;
  let quickExits = 0;
  let restartTimer: NodeJS.Timeout | null = null;

  function start(): void {
    const startedAt = Date.now();
    // spawn with an IPC channel, as fork() does (a bundler resolves fork()'s module path; this one is found at run time).
    const current = spawn(process.execPath, [...CLI_NODE_FLAGS, cliPath, "worker", "--name", "dashboard"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child = current;
    const niceness = workerNiceness();
    if (current.pid !== undefined && niceness > 0) {
      try {
        setPriority(current.pid, Math.min(19, getPriority() + niceness));
      } catch (error) {
        // Lowering a child's priority needs no privilege; if the system refuses anyway, it runs at the server's.
        log(`skillboard: could not lower the worker process's priority: ${(error as Error).message}`);
      }
    }
    current.once("exit", (code, signal) => {
      if (child === current) child = null;
      if (stopping) return;
      quickExits = Date.now() - startedAt < QUICK_EXIT_MS ? quickExits + 1 : 0;
      if (quickExits >= MAX_QUICK_EXITS) {
        log(`skillboard: the worker process keeps exiting at start (${signal ?? `exit code ${code}`}); runs will not execute until the server is restarted`);
        return;
      }
      log(`skillboard: the worker process ended (${signal ?? `exit code ${code}`}); starting it again`);
      restartTimer = setTimeout(start, RESTART_DELAY_MS);
    });
    // A send to a child that is exiting fails; the next start looks for work anyway.
    current.on("error", (error) => log(`skillboard: worker process: ${error.message}`));
  }

  start();
  return {
    wake() {
      if (child?.connected) child.send(WAKE_MESSAGE, (error) => error && undefined);
    },
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => current.once("exit", () => resolve()));
      current.kill("SIGTERM");
      // A bad SKILLBOARD_WORKER_DRAIN_S made the child exit at start; the default is as good a bound as any then.
      const drainMs = (() => {
        try {
          return workerDrainSeconds() * 1000;
        } catch {
          return DEFAULT_DRAIN_MS;
        }
      })();
      const deadline = setTimeout(() => current.kill("SIGKILL"), drainMs + STOP_GRACE_MS);
      await exited;
      clearTimeout(deadline);
    },
  };
}
