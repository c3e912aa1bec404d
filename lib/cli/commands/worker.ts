/**
 * `worker [--concurrency N] [--name NAME] [--drain-seconds N]`: a headless process that executes the queued runs and
 * optimisations of the database (and resumes those a dead process left "running") until it is stopped. The dashboard starts one as its worker process;
 * more can run beside it on the same database (each run is claimed through its lease, so nothing runs twice).
 * SIGTERM or SIGINT (or, for the dashboard's, the server going away) releases what is under way, still "running",
 * for the next worker to resume. On PostgreSQL every worker takes chunks of every active run (lib/rollout/queue-worker.ts):
 * stopping lets the items in flight finish (for up to --drain-seconds, or SKILLBOARD_WORKER_DRAIN_S, 20 s by default;
 * those still in flight then are aborted) and gives the rest of its chunks back; --concurrency bounds its items in
 * flight over all runs. Nothing is written to stdout; what happens is logged on stderr.
 */
import { parseArgs } from "node:util";
import type { Db } from "../../db";
import { startInlineWorkers, workerLimitsFromEnv } from "../../workers/inline-workers";
import { WAKE_MESSAGE } from "../../workers/worker-process";
import { CliInputError, logLine, parseIntegerOption } from "../io";

export async function workerCommand(db: () => Db, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { name: { type: "string", default: "worker" }, concurrency: { type: "string" }, "drain-seconds": { type: "string" } },
  });
  const concurrency = parseIntegerOption("concurrency", values.concurrency);
  if (concurrency !== undefined && concurrency < 1) throw new CliInputError("worker: --concurrency must be at least 1");
  const drainSeconds = parseIntegerOption("drain-seconds", values["drain-seconds"]);
  if (drainSeconds !== undefined && drainSeconds < 0) throw new CliInputError("worker: --drain-seconds must be 0 or more");
  // The options win over the environment (SKILLBOARD_WORKER_DRAIN_S is then not even read).
  const env = drainSeconds !== undefined ? { ...process.env, SKILLBOARD_WORKER_DRAIN_S: undefined } : process.env;
  const limits = { ...limitsFromEnv(env), name: values.name, ...(concurrency !== undefined ? { concurrency } : {}), ...(drainSeconds !== undefined ? { drainSeconds } : {}) };
  const workers = startInlineWorkers(db(), limits, (line) => logLine(`[${values.name}] ${line}`));
  // The workers' timers do not keep a process alive by themselves: this one lives until it is told to stop.
  const alive = setInterval(() => undefined, 60_000);
  const stopped = new Promise<string>((resolve) => {
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
    // Started by the dashboard: it asks for a look when it queues work, and its going away ends this process too.
    if (process.send) {
      process.on("message", (message) => message === WAKE_MESSAGE && workers.wake());
      process.once("disconnect", () => resolve("the server went away"));
    }
  });
  // Said once the stop signals are handled: whoever waits for this line may stop the worker from then on.
  logLine(`[${values.name}] worker ${process.pid} started`);
  const reason = await stopped;
  logLine(`[${values.name}] stopping (${reason}): releasing what is under way`);
  await workers.stop();
  clearInterval(alive);
  return 0;
}

/** The environment's limits; a mistake in them is bad input (exit 2), as a bad option is. */
function limitsFromEnv(env: NodeJS.ProcessEnv) {
  try {
    return workerLimitsFromEnv(env);
  } catch (error) {
    throw new CliInputError(`worker: ${(error as Error).message}`);
  }
}
