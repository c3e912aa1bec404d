/**
 * `worker [--name NAME]`: a headless process that executes the queued runs and optimisations of the database (and
 * resumes those a dead process left "running") until it is stopped. The dashboard starts one as its worker process;
 * more can run beside it on the same database (each run is claimed through its lease, so nothing runs twice).
 * SIGTERM or SIGINT (or, for the dashboard's, the server going away) releases what is under way, still "running",
 * for the next worker to resume. Nothing is written to stdout; what happens is logged on stderr.
 */
import { parseArgs } from "node:util";
import type { Db } from "../../db";
import { startInlineWorkers, workerLimitsFromEnv } from "../../workers/inline-workers";
import { WAKE_MESSAGE } from "../../workers/worker-process";
import { logLine } from "../io";

export async function workerCommand(db: () => Db, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { name: { type: "string", default: "worker" } } });
  const workers = startInlineWorkers(db(), workerLimitsFromEnv(), (line) => logLine(`[${values.name}] ${line}`));
  logLine(`[${values.name}] worker ${process.pid} started`);
  const stopped = new Promise<string>((resolve) => {
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
    // Started by the dashboard: it asks for a look when it queues work, and its going away ends this process too.
    if (process.send) {
      process.on("message", (message) => message === WAKE_MESSAGE && workers.wake());
      process.once("disconnect", () => resolve("the server went away"));
    }
  });
  const reason = await stopped;
  logLine(`[${values.name}] stopping (${reason}): releasing what is under way`);
  await workers.stop();
  return 0;
}
