import { setTimeout as sleep } from "node:timers/promises";
import { getRun, openDatabase, RunBusyError, type Db, type RunRecord } from "@/lib/db";
import { executeRun, type ExecuteRunOptions } from "@/lib/rollout";
import { startAppServer, type AppServer } from "./app-server";
import { launchBrowser, type BrowserSession } from "./browser";

/** What a browser test works with: the production app on a temporary database, that database, and Chromium. */
export interface BrowserApp {
  server: AppServer;
  /** The app's own database, for arranging data and checking what it stored. */
  db: Db;
  browser: BrowserSession;
  /** Closes the browser, the database and the server, in that order. */
  stop(): Promise<void>;
}

export async function startBrowserApp(
  options: { env?: Record<string, string>; viewport?: { width: number; height: number } } = {},
): Promise<BrowserApp> {
  const server = await startAppServer({ env: options.env });
  const db = openDatabase(server.databaseUrl);
  try {
    const browser = await launchBrowser({ viewport: options.viewport });
    return {
      server,
      db,
      browser,
      async stop() {
        await browser.close();
        await db.$disconnect();
        await server.stop();
      },
    };
  } catch (error) {
    await db.$disconnect();
    await server.stop();
    throw error;
  }
}

/**
 * Executes a run the test created, unless the app's own worker (which polls for queued runs) claimed it first;
 * then waits for the worker to finish it. Either way the run has ended when this returns.
 */
export async function finishRun(db: Db, runId: number, options: ExecuteRunOptions, timeoutMs = 60_000): Promise<RunRecord> {
  try {
    return await executeRun(db, runId, options);
  } catch (error) {
    if (!(error instanceof RunBusyError)) throw error;
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await getRun(db, runId);
    if (run.status !== "queued" && run.status !== "running") return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run.status} after ${timeoutMs} ms in the app's worker`);
    await sleep(100);
  }
}
