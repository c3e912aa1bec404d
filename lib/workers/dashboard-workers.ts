/**
 * The dashboard server's workers: a child worker process by default (worker-process.ts), or, with
 * SKILLBOARD_WORKER=inline, the workers inside the server process itself (one process to debug; a large run then
 * slows the pages). Kept on globalThis so Next's module reloads in development do not start more.
 */
import { getDb } from "../db";
import { startInlineWorkers, type Workers } from "./inline-workers";
import { startWorkerProcess } from "./worker-process";

const holder = globalThis as unknown as { __skillboardWorkers?: Workers };

export type WorkerMode = "process" | "inline";

export function workerModeFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): WorkerMode {
  const mode = env.SKILLBOARD_WORKER ?? "process";
  if (mode !== "process" && mode !== "inline") throw new Error(`SKILLBOARD_WORKER must be "process" or "inline", got "${mode}"`);
  return mode;
}

/** Starts the server's workers once (at boot); later calls return the same ones. */
export function ensureDashboardWorkers(mode: WorkerMode = workerModeFromEnv()): Workers {
  holder.__skillboardWorkers ??= mode === "inline" ? startInlineWorkers(getDb()) : startWorkerProcess();
  return holder.__skillboardWorkers;
}

/** Tells the workers a run or an optimisation was queued, so it starts now rather than at the next poll. */
export function wakeDashboardWorkers(): void {
  holder.__skillboardWorkers?.wake();
}
